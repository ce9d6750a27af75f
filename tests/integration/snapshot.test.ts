import { Kafka, logLevel, type Admin } from "kafkajs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

import type { ClusterSnapshot, GroupSnapshot } from "../../lib/domain/snapshot";
import { takeSnapshot } from "../../lib/kafka/snapshot";
import { KafkaWire } from "../../lib/kafka/wire";
import { logger } from "../../lib/logger";
import { waitFor } from "../../scripts/lib/process";
import { startJavaConsumer } from "../fixtures/java-consumer";
import { ownBroker, type OwnBroker } from "../fixtures/kafka-broker";
import { describeMembers, describeOffsets, describeState } from "../fixtures/kafka-tool";
import { startKafkajsConsumer, uniqueName, type Managed } from "../fixtures/processes";

// A cluster holding the four kinds of group the collector must read, on Kafka 4.x (the shared
// broker) and on 3.9.x (a broker of this test's own): a classic group of two kafkajs consumers,
// a classic group with a static Java member, a KIP-848 `consumer` group (4.x only) and an empty
// group with committed offsets. Every group is cross-checked against Kafka's own
// `kafka-consumer-groups --describe`.

const shared = inject("kafkaBootstrap");
const PARTITIONS = 4;
const MESSAGES = 40;

interface Target {
  label: string;
  bootstrap: string;
  port: string;
  kip848: boolean;
  own?: OwnBroker;
}

const targets: Target[] = [
  {
    label: `${inject("kafkaVersion")} (shared broker)`,
    bootstrap: shared,
    port: shared.split(":")[1]!,
    kip848: Number(inject("kafkaVersion").split(".")[0]) >= 4,
  },
  (() => {
    const own = ownBroker(9692, undefined, "3.9.2");
    return { label: "3.9.2", bootstrap: own.bootstrap, port: String(own.port), kip848: false, own };
  })(),
];

describe.each(targets)("snapshot on Kafka $label", (target) => {
  const topic = uniqueName("snap-topic");
  const g = {
    kafkajs: uniqueName("snap-kafkajs"),
    static: uniqueName("snap-static"),
    kip848: uniqueName("snap-848"),
    empty: uniqueName("snap-empty"),
  };
  const ids = () =>
    Object.entries(g)
      .filter(([k]) => k !== "kip848" || target.kip848)
      .map(([, v]) => v);
  const processes: Managed[] = [];
  let admin: Admin;
  let wire: KafkaWire;

  beforeAll(async () => {
    await target.own?.start();
    const kafka = new Kafka({
      clientId: "gw-snap-test",
      brokers: [target.bootstrap],
      logLevel: logLevel.NOTHING,
    });
    admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions: PARTITIONS }], waitForLeaders: true });
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({
      topic,
      messages: Array.from({ length: MESSAGES }, (_, i) => ({ value: `m${i}`, partition: i % PARTITIONS })),
    });
    await producer.disconnect();
    // Offsets 1, 2, 3, 4 on partitions 0..3 against log-end offset 10 each: lag 9, 8, 7, 6.
    await admin.setOffsets({
      groupId: g.empty,
      topic,
      partitions: Array.from({ length: PARTITIONS }, (_, p) => ({ partition: p, offset: String(p + 1) })),
    });

    for (const clientId of ["kjs-1", "kjs-2"]) {
      processes.push(
        startKafkajsConsumer({ brokers: [target.bootstrap], groupId: g.kafkajs, topics: [topic], clientId }),
      );
    }
    processes.push(
      startJavaConsumer({
        bootstrap: target.bootstrap,
        groupId: g.static,
        topics: [topic],
        clientId: "java-static",
        groupInstanceId: "static-instance-1",
        sessionTimeoutMs: 10_000,
      }),
    );
    if (target.kip848) {
      processes.push(
        startJavaConsumer({
          bootstrap: target.bootstrap,
          groupId: g.kip848,
          topics: [topic],
          clientId: "java-848",
          groupProtocol: "consumer",
        }),
      );
    }
    wire = KafkaWire.create(
      { clusterName: target.label, brokers: [target.bootstrap], clientId: "gw-snap-test" },
      logger,
    );
    await wire.connect();
  });

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await wire?.disconnect();
    await admin?.disconnect();
    await target.own?.stop(true);
  });

  let snapshot: ClusterSnapshot;
  const group = (id: string): GroupSnapshot => {
    const found = snapshot.groups.find((x) => x.groupId === id);
    if (!found) throw new Error(`group ${id} not in snapshot`);
    return found;
  };

  it("reads every group with type, state, members, assignment and lag", async () => {
    // Settled: every live group Stable with all partitions assigned and nothing left to consume.
    snapshot = await waitFor(
      "all groups settled",
      async () => {
        const { snapshot: s } = await takeSnapshot(wire);
        const settled = (id: string, members: number) => {
          const x = s.groups.find((y) => y.groupId === id);
          const assigned = x?.members.flatMap((m) => m.assignment.flatMap((a) => a.partitions)) ?? [];
          return (
            x?.state === "Stable" &&
            x.members.length === members &&
            assigned.length === PARTITIONS &&
            x.lag.total === 0n &&
            x.lag.unknownPartitions === 0
          );
        };
        const ok = settled(g.kafkajs, 2) && settled(g.static, 1) && (!target.kip848 || settled(g.kip848, 1));
        return ok ? s : undefined;
      },
      { timeoutMs: 90_000, intervalMs: 500 },
    );

    const kjs = group(g.kafkajs);
    expect(kjs).toMatchObject({ type: "classic", protocolType: "consumer", groupEpoch: null });
    expect(kjs.members.map((m) => m.clientId).sort()).toEqual(["kjs-1", "kjs-2"]);
    expect(kjs.members.every((m) => m.subscribedTopics.join() === topic)).toBe(true);
    expect(kjs.assignor).toBeTruthy();

    const stat = group(g.static);
    expect(stat).toMatchObject({ type: "classic", state: "Stable" });
    expect(stat.members[0]).toMatchObject({ groupInstanceId: "static-instance-1", clientId: "java-static" });
    expect(stat.members[0]!.assignment).toEqual([{ topic, partitions: [0, 1, 2, 3] }]);

    if (target.kip848) {
      const k = group(g.kip848);
      expect(k).toMatchObject({ type: "consumer", state: "Stable", protocolType: "consumer" });
      expect(k.groupEpoch).toBeGreaterThan(0);
      expect(k.assignmentEpoch).toBe(k.groupEpoch);
      expect(k.members[0]!.memberEpoch).toBe(k.groupEpoch);
      expect(k.members[0]!.assignment).toEqual([{ topic, partitions: [0, 1, 2, 3] }]);
      expect(k.members[0]!.targetAssignment).toEqual([{ topic, partitions: [0, 1, 2, 3] }]);
      expect(k.assignor).toBe("uniform");
    }

    const empty = group(g.empty);
    expect(empty).toMatchObject({ type: "classic", state: "Empty", members: [] });
    expect(empty.lag.total).toBe(9n + 8n + 7n + 6n);
    expect(empty.lag.max).toBe(9n);
    expect(empty.lag.partitions.map((p) => [p.partition, p.committedOffset, p.logEndOffset, p.lag])).toEqual([
      [0, 1n, 10n, 9n],
      [1, 2n, 10n, 8n],
      [2, 3n, 10n, 7n],
      [3, 4n, 10n, 6n],
    ]);

    const t = snapshot.topics.find((x) => x.name === topic)!;
    expect(t.partitions.map((p) => [p.logStartOffset, p.logEndOffset])).toEqual(
      Array(PARTITIONS).fill([0n, 10n]),
    );
    // Batched: the cost of a cycle does not depend on the number of groups.
    const requests = snapshot.poll.requests;
    expect(requests.ListGroups).toBe(1);
    expect(requests.OffsetFetch).toBeLessThanOrEqual(Math.ceil(snapshot.groups.length / 500));
    expect(requests.DescribeGroups ?? 0).toBeLessThanOrEqual(1);
  });

  it("agrees with kafka-consumer-groups --describe", async () => {
    const tool = { port: target.port };
    const offsets = await describeOffsets(ids(), tool);
    for (const id of ids()) {
      const ours = group(id);
      const rows = offsets.rows
        .filter((r) => r.group === id)
        .sort((a, b) => (a.partition ?? 0) - (b.partition ?? 0));
      expect(
        rows.map((r) => [r.topic, r.partition, r.currentOffset, r.logEndOffset, r.lag]),
        id,
      ).toEqual(
        ours.lag.partitions.map((p) => [p.topic, p.partition, p.committedOffset, p.logEndOffset, p.lag]),
      );
      // Who holds each partition, by member id, client id and host.
      const holder = new Map<string, (typeof ours.members)[number]>(
        ours.members.flatMap((m) =>
          m.assignment.flatMap((a) => a.partitions.map((p) => [`${a.topic}:${p}`, m] as const)),
        ),
      );
      for (const r of rows) {
        const m = holder.get(`${r.topic}:${r.partition}`);
        expect([r.consumerId, r.clientId, r.host], `${id} ${r.partition}`).toEqual(
          m ? [m.memberId, m.clientId, m.clientHost] : ["-", "-", "-"],
        );
      }
    }

    const members = await describeMembers(
      ids().filter((id) => id !== g.empty),
      tool,
    );
    for (const id of ids().filter((x) => x !== g.empty)) {
      const ours = group(id);
      const rows = members.rows.filter((r) => r.group === id);
      expect(
        rows
          .map((r) => [r.consumerId, r.groupInstanceId === "-" ? null : r.groupInstanceId, r.clientId])
          .sort(),
        id,
      ).toEqual(ours.members.map((m) => [m.memberId, m.groupInstanceId, m.clientId]).sort());
    }

    const states = await describeState(ids(), tool);
    for (const id of ids()) {
      const row = states.rows.find((r) => r.group === id);
      const ours = group(id);
      expect(row?.state, id).toBe(ours.state);
      expect(row?.members, id).toBe(ours.members.length);
      if (ours.type === "consumer") {
        expect(row?.groupProtocol).toBe("consumer");
        expect(row?.groupEpoch).toBe(ours.groupEpoch);
        expect(row?.targetAssignmentEpoch).toBe(ours.assignmentEpoch);
      }
    }
  });
});
