import { Kafka, logLevel, type Admin } from "kafkajs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

import { waitFor } from "../../scripts/lib/process";
import { describeCluster, describeGroups, listGroupIds } from "../../lib/kafka/admin";
import { startKafkajsConsumer, uniqueName, type Managed } from "../fixtures/processes";

// A real kafkajs consumer group in a child process, read back through groupwatch's admin adapter.

const bootstrap = inject("kafkaBootstrap");
let admin: Admin;
const consumers: Managed[] = [];

beforeAll(async () => {
  admin = new Kafka({
    clientId: "groupwatch-test",
    brokers: [bootstrap],
    logLevel: logLevel.NOTHING,
  }).admin();
  await admin.connect();
});

afterAll(async () => {
  await Promise.all(consumers.map((c) => c.stop()));
  await admin.disconnect();
});

describe("admin adapter against a real broker", () => {
  it("describes the cluster: one broker on the test port", async () => {
    const info = await describeCluster(admin);
    expect(info.brokers).toHaveLength(1);
    expect(info.brokers[0]).toMatchObject({ host: "127.0.0.1", port: Number(bootstrap.split(":")[1]) });
    expect(info.controllerId).not.toBeNull();
    expect(info.kafkaClusterId).toMatch(/\S+/);
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

    expect(await listGroupIds(admin)).toContain(groupId);
    // Right after JoinGroup the group can still be CompletingRebalance: wait for Stable.
    const group = await waitFor("group Stable", async () => {
      const [g] = await describeGroups(admin, [groupId]);
      return g?.state === "Stable" ? g : undefined;
    });

    expect(group.protocolType).toBe("consumer");
    expect(group.members).toHaveLength(1);
    const member = group.members[0]!;
    expect(member.memberId).toBe(joined.memberId);
    expect(member.clientId).toBe("it-client-1");
    expect(member.subscribedTopics).toEqual([topic]);
    expect(member.assignment).toEqual([{ topic, partitions: [0, 1, 2] }]);

    await consumer.stop();
    const after = await waitFor("group Empty after clean leave", async () => {
      const [g] = await describeGroups(admin, [groupId]);
      return g?.state === "Empty" ? g : undefined;
    });
    expect(after.members).toHaveLength(0);
  });
});
