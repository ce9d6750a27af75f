import { execFile } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";

import { Kafka, logLevel, type Admin, type Producer } from "kafkajs";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, inject, it, test } from "vitest";

import { KafkaWire, type ClassicGroupDescription } from "../../lib/kafka/wire";
import { waitFor } from "../../scripts/lib/process";
import { root, startKafkajsConsumer, startManaged, uniqueName, type Managed } from "../fixtures/processes";

// The wire layer against the real broker: kafkajs groups (classic protocol), a Java console
// consumer with group.protocol=consumer (KIP-848, Kafka 4+), committed offsets, end offsets,
// cross-checked against Kafka's own ConsumerGroupCommand. GW_WIRE_CAPTURE=1 re-records the
// response fixtures of tests/unit/wire-messages.test.ts into tests/fixtures/wire/.

const exec = promisify(execFile);
const bootstrap = inject("kafkaBootstrap");
const kafkaVersion = inject("kafkaVersion");
const port = bootstrap.split(":")[1] ?? "9092";
const major = Number(kafkaVersion.split(".")[0]);
const minor = Number(kafkaVersion.split(".")[1]);
const capture = process.env.GW_WIRE_CAPTURE === "1";

const topicA = uniqueName("gw-wire-a"); // 3 partitions: 5, 3 and 0 records
const topicB = uniqueName("gw-wire-b"); // 2 partitions, for the KIP-848 group
const liveGroup = uniqueName("gw-wire-live"); // kafkajs consumer on topicA
const committedGroup = uniqueName("gw-wire-committed"); // no members, offset 3 committed on topicA/0
const idleGroup = uniqueName("gw-wire-idle"); // never existed
const clientId = "gw-wire-it-client";

const responses: { apiName: string; apiKey: number; version: number; body: Buffer }[] = [];
let wire: KafkaWire;
let admin: Admin;
let producer: Producer;
const processes: Managed[] = [];
let coordinator: number;
let liveMemberId: string;

function lastResponse(apiName: string) {
  const r = responses.findLast((x) => x.apiName === apiName);
  if (!r) throw new Error(`no ${apiName} response seen`);
  return r;
}

/** Saves the last response of an API as a fixture (GW_WIRE_CAPTURE=1 only). */
function saveFixture(label: string, apiName: string, context: Record<string, unknown>) {
  if (!capture) return;
  const r = lastResponse(apiName);
  const dir = path.join(root, "tests/fixtures/wire");
  mkdirSync(dir, { recursive: true });
  const fixture = {
    apiName,
    apiKey: r.apiKey,
    version: r.version,
    kafkaVersion,
    context,
    hex: r.body.toString("hex"),
  };
  writeFileSync(path.join(dir, `${label}.${kafkaVersion}.json`), `${JSON.stringify(fixture, null, 2)}\n`);
}

async function kafkaTool(args: string[]): Promise<string> {
  const { stdout } = await exec("bash", [path.join(root, "scripts/kafka.sh"), ...args], {
    env: { ...process.env, KAFKA_PORT: port },
    maxBuffer: 16 << 20,
  });
  return stdout;
}

/** Rows of a ConsumerGroupCommand table, keyed by its header. */
function parseTable(out: string): Record<string, string>[] {
  const lines = out.split("\n").filter((l) => l.trim() !== "");
  const headerAt = lines.findIndex((l) => /^GROUP\s/.test(l));
  if (headerAt < 0) return [];
  const header = lines[headerAt]!.trim().split(/\s+/);
  return lines
    .slice(headerAt + 1)
    .map((l) => l.trim().split(/\s+/))
    .map((cells) => Object.fromEntries(header.map((h, i) => [h, cells[i] ?? ""])));
}

async function describeOne(groupId: string): Promise<ClassicGroupDescription> {
  const [g] = await wire.describeClassicGroups(coordinator, [groupId]);
  if (!g) throw new Error(`${groupId} missing from DescribeGroups`);
  return g;
}

beforeAll(async () => {
  const kafka = new Kafka({ clientId: "gw-wire-it-admin", brokers: [bootstrap], logLevel: logLevel.NOTHING });
  admin = kafka.admin();
  producer = kafka.producer({ allowAutoTopicCreation: false });
  await Promise.all([admin.connect(), producer.connect()]);
  await admin.createTopics({
    topics: [
      { topic: topicA, numPartitions: 3 },
      { topic: topicB, numPartitions: 2 },
    ],
    waitForLeaders: true,
  });
  const records = (n: number, partition: number) =>
    Array.from({ length: n }, (_, i) => ({ partition, value: `m${partition}-${i}` }));
  await producer.send({ topic: topicA, messages: [...records(5, 0), ...records(3, 1)] });
  await admin.setOffsets({
    groupId: committedGroup,
    topic: topicA,
    partitions: [{ partition: 0, offset: "3" }],
  });

  wire = KafkaWire.create(
    { clusterName: "wire-it", brokers: [bootstrap], clientId: "gw-wire-it", requestTimeoutMs: 15_000 },
    pino({ level: "silent" }),
    {
      onResponse: (r) =>
        responses.push({ apiName: r.apiName, apiKey: r.apiKey, version: r.version, body: r.body }),
    },
  );
  await wire.connect();
  coordinator = (await wire.metadata()).brokers[0]!.nodeId;

  const consumer = startKafkajsConsumer({
    brokers: [bootstrap],
    groupId: liveGroup,
    topics: [topicA],
    clientId,
  });
  processes.push(consumer);
  liveMemberId = String((await consumer.waitForEvent("joined")).memberId);
});

afterAll(async () => {
  await Promise.all(processes.map((p) => p.stop()));
  await wire?.disconnect();
  await producer?.disconnect();
  await admin?.disconnect();
});

describe("KafkaWire against a real broker", () => {
  it("metadata: brokers, controller, cluster id and every topic with its id, in one request", async () => {
    wire.resetRequestCounts();
    const md = await wire.metadata();
    expect(wire.requestCounts).toEqual({ Metadata: 1 });
    expect(md.clusterId).toMatch(/\S+/);
    expect(md.brokers).toEqual([
      { nodeId: md.controllerId, host: "127.0.0.1", port: Number(port), rack: null },
    ]);
    const a = md.topics.find((t) => t.name === topicA);
    expect(a).toMatchObject({ internal: false, errorCode: 0 });
    expect(a?.topicId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(a?.partitions.map((p) => [p.partition, p.leader, p.errorCode])).toEqual([
      [0, md.controllerId, 0],
      [1, md.controllerId, 0],
      [2, md.controllerId, 0],
    ]);
    expect(md.topics.find((t) => t.name === "__consumer_offsets")?.internal).toBe(true);
    saveFixture("metadata", "Metadata", {
      topicA,
      topicId: a?.topicId,
      nodeId: coordinator,
      port: Number(port),
    });
  });

  it("findCoordinators: every group in one batched request", async () => {
    wire.resetRequestCounts();
    const coords = await wire.findCoordinators([liveGroup, committedGroup, idleGroup]);
    expect(wire.requestCounts).toEqual({ FindCoordinator: 1 });
    for (const g of [liveGroup, committedGroup, idleGroup])
      expect(coords.get(g)).toEqual({ nodeId: coordinator, host: "127.0.0.1", port: Number(port) });
  });

  it("describeClassicGroups: the live kafkajs group decoded, all groups in one request", async () => {
    const live = await waitFor("live group Stable", async () => {
      const g = await describeOne(liveGroup);
      return g.state === "Stable" ? g : undefined;
    });
    wire.resetRequestCounts();
    const groups = await wire.describeClassicGroups(coordinator, [liveGroup, committedGroup, idleGroup]);
    expect(wire.requestCounts).toEqual({ DescribeGroups: 1 });
    saveFixture("describe-groups", "DescribeGroups", {
      liveGroup,
      committedGroup,
      idleGroup,
      topicA,
      clientId,
    });

    expect(live).toMatchObject({ error: null, protocolType: "consumer", protocol: "RoundRobinAssigner" });
    const byId = new Map(groups.map((g) => [g.groupId, g]));
    const [member] = byId.get(liveGroup)?.members ?? [];
    expect(member).toMatchObject({ memberId: liveMemberId, groupInstanceId: null, clientId });
    expect(member?.clientHost).toMatch(/127\.0\.0\.1/);
    expect(member?.subscription?.topics).toEqual([topicA]);
    // Decoded as the group leader wrote it (kafkajs's round robin does not sort partitions).
    const assigned = member?.assignment?.assignment.map((a) => ({
      ...a,
      partitions: a.partitions.toSorted(),
    }));
    expect(assigned).toEqual([{ topic: topicA, partitions: [0, 1, 2] }]);
    expect(byId.get(committedGroup)).toMatchObject({
      error: null,
      state: "Empty",
      protocolType: "consumer",
      members: [],
    });
    expect(byId.get(idleGroup)).toMatchObject({ state: "Dead", members: [] });
  });

  it("listGroups: state and type of each group on its coordinator", async () => {
    wire.resetRequestCounts();
    const groups = await wire.listGroups(coordinator);
    expect(wire.requestCounts).toEqual({ ListGroups: 1 });
    expect(groups.find((g) => g.groupId === liveGroup)).toEqual({
      groupId: liveGroup,
      state: "Stable",
      type: "classic",
      protocolType: "consumer",
    });
    expect(groups.find((g) => g.groupId === committedGroup)).toMatchObject({
      state: "Empty",
      protocolType: "consumer",
    });
    expect(groups.some((g) => g.groupId === idleGroup)).toBe(false);
  });

  it("fetchOffsets: three groups in one request; no commit -> null", async () => {
    // kafkajs commits after each batch; wait until it has consumed everything.
    await waitFor("live group committed 5 and 3", async () => {
      const offsets = (await wire.fetchOffsets(coordinator, [liveGroup])).get(liveGroup)?.offsets ?? [];
      return offsets.map((o) => o.offset).join() === "5,3";
    });
    wire.resetRequestCounts();
    const partitionsA = [0, 1, 2].map((partition) => ({ topic: topicA, partition }));
    const res = await wire.fetchOffsets(coordinator, [
      liveGroup,
      { groupId: committedGroup, partitions: partitionsA },
      idleGroup,
    ]);
    expect(wire.requestCounts).toEqual({ OffsetFetch: 1 });
    saveFixture("offset-fetch", "OffsetFetch", { liveGroup, committedGroup, idleGroup, topicA });

    // kafkajs commits without a leader epoch (OffsetCommit v<6 has none).
    expect(res.get(liveGroup)).toEqual({
      error: null,
      offsets: [
        { topic: topicA, partition: 0, offset: 5n, leaderEpoch: null, metadata: "", error: null },
        { topic: topicA, partition: 1, offset: 3n, leaderEpoch: null, metadata: "", error: null },
      ],
    });
    expect(res.get(committedGroup)?.offsets.map((o) => [o.partition, o.offset, o.error])).toEqual([
      [0, 3n, null],
      [1, null, null],
      [2, null, null],
    ]);
    expect(res.get(idleGroup)).toEqual({ error: null, offsets: [] });
  });

  it("listOffsets: latest and earliest of all partitions in one request each", async () => {
    const partitions = [2, 0, 1].map((partition) => ({ topic: topicA, partition }));
    wire.resetRequestCounts();
    const latest = await wire.listOffsets(coordinator, partitions, -1n);
    const earliest = await wire.listOffsets(coordinator, partitions, -2n);
    expect(wire.requestCounts).toEqual({ ListOffsets: 2 });
    saveFixture("list-offsets-earliest", "ListOffsets", { topicA });
    expect(latest.map((r) => [r.partition, r.offset, r.error])).toEqual([
      [2, 0n, null],
      [0, 5n, null],
      [1, 3n, null],
    ]);
    expect(earliest.map((r) => r.offset)).toEqual([0n, 0n, 0n]);
    const unknown = await wire.listOffsets(
      coordinator,
      [{ topic: uniqueName("gw-wire-none"), partition: 0 }],
      -1n,
    );
    expect(unknown[0]).toMatchObject({ offset: null, error: "UNKNOWN_TOPIC_OR_PARTITION" });
  });

  it("agrees with Kafka's ConsumerGroupCommand on the live group", async () => {
    const rows = parseTable(
      await kafkaTool([
        "consumer-groups",
        "--bootstrap-server",
        bootstrap,
        "--describe",
        "--group",
        liveGroup,
      ]),
    );
    const partitions = [0, 1, 2].map((partition) => ({ topic: topicA, partition }));
    const [offsets, ends, group] = await Promise.all([
      wire.fetchOffsets(coordinator, [{ groupId: liveGroup, partitions }]),
      wire.listOffsets(coordinator, partitions, -1n),
      describeOne(liveGroup),
    ]);
    const ours = partitions.map(({ partition }) => ({
      PARTITION: String(partition),
      "CURRENT-OFFSET": String(offsets.get(liveGroup)?.offsets[partition]?.offset ?? "-"),
      "LOG-END-OFFSET": String(ends[partition]?.offset),
      "CONSUMER-ID": group.members[0]?.memberId,
      "CLIENT-ID": group.members[0]?.clientId,
    }));
    const theirs = rows
      .filter((r) => r.TOPIC === topicA)
      .sort((a, b) => Number(a.PARTITION) - Number(b.PARTITION))
      .map((r) => ({
        PARTITION: r.PARTITION,
        "CURRENT-OFFSET": r["CURRENT-OFFSET"],
        "LOG-END-OFFSET": r["LOG-END-OFFSET"],
        "CONSUMER-ID": r["CONSUMER-ID"],
        "CLIENT-ID": r["CLIENT-ID"],
      }));
    expect(ours).toEqual(theirs);
  });

  it("describeConsumerGroups on classic groups: an error per group, no exception", async () => {
    const res = await wire.describeConsumerGroups(coordinator, [liveGroup, committedGroup]);
    // Kafka 3.9 advertises ConsumerGroupDescribe v0 but answers UNSUPPORTED_VERSION per group
    // unless its new group coordinator is enabled.
    const expected = major >= 4 ? "GROUP_ID_NOT_FOUND" : "UNSUPPORTED_VERSION";
    saveFixture("consumer-group-describe-classic", "ConsumerGroupDescribe", { liveGroup, committedGroup });
    expect(res.map((g) => [g.groupId, g.error, g.members.length])).toEqual([
      [liveGroup, expected, 0],
      [committedGroup, expected, 0],
    ]);
  });

  it("a call to an unknown or unreachable broker rejects", async () => {
    wire.resetRequestCounts();
    await expect(wire.listGroups(coordinator + 1000)).rejects.toThrow(/not found/);
    // an unknown node id makes kafkajs re-discover brokers once
    expect(wire.requestCounts).toEqual({ Metadata: 1 });

    const nowhere = KafkaWire.create(
      {
        clusterName: "wire-it-nowhere",
        brokers: ["127.0.0.1:1"],
        clientId: "gw-wire-it",
        connectionTimeoutMs: 500,
      },
      pino({ level: "silent" }),
    );
    await expect(nowhere.connect()).rejects.toThrow(/ECONNREFUSED|Connection/);
    await nowhere.disconnect();
  });

  test.each([
    {
      label: "non-flexible versions",
      maxVersions: {
        Metadata: 8,
        ListGroups: 2,
        FindCoordinator: 2,
        DescribeGroups: 4,
        OffsetFetch: 5,
        ListOffsets: 5,
      },
    },
    {
      label: "flexible, before batching",
      maxVersions: {
        Metadata: 9,
        ListGroups: 4,
        FindCoordinator: 3,
        DescribeGroups: 5,
        OffsetFetch: 7,
        ListOffsets: 6,
      },
    },
  ])("older versions give the same answers: $label", async ({ maxVersions }) => {
    const old = KafkaWire.create(
      { clusterName: "wire-it-old", brokers: [bootstrap], clientId: "gw-wire-it-old" },
      pino({ level: "silent" }),
      { maxVersions },
    );
    await old.connect();
    try {
      const md = await old.metadata();
      expect(md.topics.find((t) => t.name === topicA)).toMatchObject({
        topicId: null,
        partitions: [{}, {}, {}],
      });

      const listed = (await old.listGroups(coordinator)).find((g) => g.groupId === committedGroup);
      expect(listed).toEqual({
        groupId: committedGroup,
        state: maxVersions.ListGroups >= 4 ? "Empty" : null,
        type: null,
        protocolType: "consumer",
      });

      old.resetRequestCounts();
      const coords = await old.findCoordinators([liveGroup, committedGroup, idleGroup]);
      expect([...coords.values()]).toEqual(
        Array(3).fill({ nodeId: coordinator, host: "127.0.0.1", port: Number(port) }),
      );
      expect(old.requestCounts).toEqual({ FindCoordinator: 3 });

      const [live, committed] = await old.describeClassicGroups(coordinator, [liveGroup, committedGroup]);
      expect(live?.members[0]?.subscription?.topics).toEqual([topicA]);
      expect(committed).toMatchObject({ state: "Empty", members: [] });

      old.resetRequestCounts();
      const partitionsA = [0, 1, 2].map((partition) => ({ topic: topicA, partition }));
      const offsets = await old.fetchOffsets(coordinator, [
        { groupId: committedGroup, partitions: partitionsA },
        idleGroup,
      ]);
      expect(old.requestCounts).toEqual({ OffsetFetch: 2 });
      expect(offsets.get(committedGroup)?.offsets.map((o) => o.offset)).toEqual([3n, null, null]);
      expect(offsets.get(idleGroup)).toEqual({ error: null, offsets: [] });

      const latest = await old.listOffsets(coordinator, partitionsA, -1n);
      expect(latest.map((r) => r.offset)).toEqual([5n, 3n, 0n]);
    } finally {
      await old.disconnect();
    }
  });

  it.runIf(major >= 4)(
    "describeConsumerGroups: a KIP-848 console consumer, epochs and assignment by topic id",
    async () => {
      const group = uniqueName("gw-wire-848");
      const prop = major > 4 || minor >= 2 ? "--command-property" : "--consumer-property";
      const consumer = startManaged(
        "bash",
        [
          path.join(root, "scripts/kafka.sh"),
          "run-class",
          "org.apache.kafka.tools.consumer.ConsoleConsumer",
          "--bootstrap-server",
          bootstrap,
          "--topic",
          topicB,
          "--group",
          group,
          prop,
          "group.protocol=consumer",
          prop,
          "client.id=gw-wire-848-client",
        ],
        { KAFKA_PORT: port },
      );
      processes.push(consumer);
      const [coord] = [...(await wire.findCoordinators([group])).values()];
      const nodeId = coord && "nodeId" in coord ? coord.nodeId : coordinator;

      const described = await waitFor(
        "KIP-848 group Stable with 1 member owning both partitions",
        async () => {
          if (consumer.child.exitCode !== null)
            throw new Error(`console consumer exited:\n${consumer.output()}`);
          const [g] = await wire.describeConsumerGroups(nodeId, [group]);
          const owned = g?.members[0]?.assignment.flatMap((a) => a.partitions) ?? [];
          return g?.state === "Stable" && g.members.length === 1 && owned.length === 2 ? g : undefined;
        },
        { timeoutMs: 90_000, intervalMs: 500 },
      );
      saveFixture("consumer-group-describe", "ConsumerGroupDescribe", { group, topicB });
      const md = await wire.metadata();
      const topicId = md.topics.find((t) => t.name === topicB)?.topicId;

      expect(described).toMatchObject({
        groupId: group,
        error: null,
        errorMessage: null,
        assignorName: "uniform",
      });
      expect(described.epoch).toBeGreaterThanOrEqual(1);
      expect(described.assignmentEpoch).toBe(described.epoch);
      const m = described.members[0]!;
      expect(m).toMatchObject({
        memberEpoch: described.epoch,
        clientId: "gw-wire-848-client",
        instanceId: null,
        subscribedTopicNames: [topicB],
        subscribedTopicRegex: null,
        memberType: "consumer",
      });
      expect(m.assignment).toEqual([{ topic: topicB, topicId, partitions: [0, 1] }]);
      expect(m.targetAssignment).toEqual(m.assignment);

      const listed = (await wire.listGroups(nodeId)).find((g) => g.groupId === group);
      expect(listed).toEqual({ groupId: group, state: "Stable", type: "consumer", protocolType: "consumer" });

      // DescribeGroups on a consumer-protocol group: Dead, no members (v6+: GROUP_ID_NOT_FOUND).
      const [classic] = await wire.describeClassicGroups(nodeId, [group]);
      expect(classic).toMatchObject({ groupId: group, state: "Dead", members: [] });
      saveFixture("describe-groups-consumer-protocol", "DescribeGroups", { group });

      const state = await kafkaTool([
        "consumer-groups",
        "--bootstrap-server",
        bootstrap,
        "--describe",
        "--group",
        group,
        "--state",
      ]);
      expect(state).toMatch(new RegExp(`${group}\\s.*\\suniform\\s+Stable\\s+1\\b`));

      await consumer.stop();
    },
  );
});
