import { Kafka, logLevel, type Admin } from "kafkajs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

import type { GroupSnapshot } from "../../lib/domain/snapshot";
import { takeSnapshot } from "../../lib/kafka/snapshot";
import { KafkaWire } from "../../lib/kafka/wire";
import { logger } from "../../lib/logger";
import { waitFor } from "../../scripts/lib/process";
import { startKafkajsConsumer, uniqueName, type Managed } from "../fixtures/processes";

// A real kafkajs consumer group in a child process, read back through the collector's own path.

const bootstrap = inject("kafkaBootstrap");
let admin: Admin;
let wire: KafkaWire;
const consumers: Managed[] = [];

beforeAll(async () => {
  admin = new Kafka({
    clientId: "groupwatch-test",
    brokers: [bootstrap],
    logLevel: logLevel.NOTHING,
  }).admin();
  wire = KafkaWire.create({ clusterName: "it", brokers: [bootstrap], clientId: "groupwatch-test" }, logger);
  await Promise.all([admin.connect(), wire.connect()]);
});

afterAll(async () => {
  await Promise.all(consumers.map((c) => c.stop()));
  await Promise.all([admin.disconnect(), wire.disconnect()]);
});

async function groupIn(groupId: string, state: string): Promise<GroupSnapshot> {
  return waitFor(`group ${state}`, async () => {
    const { snapshot } = await takeSnapshot(wire);
    const g = snapshot.groups.find((x) => x.groupId === groupId);
    return g?.state === state ? g : undefined;
  });
}

describe("reading a real broker", () => {
  it("describes the cluster: one broker on the test port", async () => {
    const { snapshot } = await takeSnapshot(wire);
    expect(snapshot.brokers).toHaveLength(1);
    expect(snapshot.brokers[0]).toMatchObject({ host: "127.0.0.1", port: Number(bootstrap.split(":")[1]) });
    expect(snapshot.controllerId).not.toBeNull();
    expect(snapshot.kafkaClusterId).toMatch(/\S+/);
  });

  it("reads a live kafkajs group: Stable, one member, all partitions assigned to it", async () => {
    const topic = uniqueName("gw-it-topic");
    const groupId = uniqueName("gw-it-group");
    await admin.createTopics({ topics: [{ topic, numPartitions: 3 }], waitForLeaders: true });

    const consumer = startKafkajsConsumer({
      brokers: [bootstrap],
      groupId,
      topics: [topic],
      clientId: "it-client-1",
    });
    consumers.push(consumer);
    const joined = await consumer.waitForEvent("joined");

    // Right after JoinGroup the group can still be CompletingRebalance: wait for Stable.
    const group = await groupIn(groupId, "Stable");
    expect(group).toMatchObject({ type: "classic", protocolType: "consumer" });
    expect(group.members).toHaveLength(1);
    const member = group.members[0]!;
    expect(member.memberId).toBe(joined.memberId);
    expect(member.clientId).toBe("it-client-1");
    expect(member.subscribedTopics).toEqual([topic]);
    expect(member.assignment).toEqual([{ topic, partitions: [0, 1, 2] }]);

    await consumer.stop();
    const after = await groupIn(groupId, "Empty");
    expect(after.members).toHaveLength(0);
  });
});
