import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";

import { describe, expect, test } from "vitest";

import { Encoder } from "../../lib/kafka/wire/codec";
import { decodeAssignment, decodeSubscription } from "../../lib/kafka/wire/consumer-protocol";
import {
  consumerGroupDescribeCall,
  describeGroupsCall,
  findCoordinatorsCall,
  listGroupsCall,
  listOffsetsCall,
  metadataCall,
  offsetFetchGroupsCall,
} from "../../lib/kafka/wire/messages";
import { decodeResponse, type WireCall } from "../../lib/kafka/wire/protocol";

// Responses captured from real brokers (tests/integration/wire.test.ts with GW_WIRE_CAPTURE=1),
// decoded here without a broker. Group and topic names were random; each fixture's `context`
// says which ones it holds.

interface Fixture {
  apiName: string;
  apiKey: number;
  version: number;
  kafkaVersion: string;
  context: Record<string, string>;
  hex: string;
}

const dir = path.resolve(import.meta.dirname, "../fixtures/wire");
const fixtures = readdirSync(dir)
  .filter((f) => f.endsWith(".json"))
  .map((file) => ({ file, ...(JSON.parse(readFileSync(path.join(dir, file), "utf8")) as Fixture) }));

function load(label: string, kafkaVersion: string): Fixture {
  const f = fixtures.find((x) => x.file === `${label}.${kafkaVersion}.json`);
  if (!f) throw new Error(`no fixture ${label}.${kafkaVersion}.json`);
  return f;
}

const decode = <T>(f: Fixture, call: WireCall<T>): T => {
  expect(call.apiKey).toBe(f.apiKey);
  return decodeResponse(Buffer.from(f.hex, "hex"), call);
};
const byGroup = <T extends { groupId: string }>(items: T[], id: string | undefined) =>
  items.find((g) => g.groupId === id);

test("every captured fixture decodes completely with its version's schema", () => {
  const calls: Record<string, (v: number) => WireCall<unknown>> = {
    Metadata: metadataCall,
    ListGroups: listGroupsCall,
    DescribeGroups: (v) => describeGroupsCall(v, []),
    ConsumerGroupDescribe: (v) => consumerGroupDescribeCall(v, []),
    OffsetFetch: (v) => offsetFetchGroupsCall(v, []),
    ListOffsets: (v) => listOffsetsCall(v, [], -1n, 0),
  };
  expect(fixtures.length).toBeGreaterThanOrEqual(10);
  for (const f of fixtures) {
    const make = calls[f.apiName];
    expect(make, f.file).toBeDefined();
    expect(() => decode(f, make!(f.version)), f.file).not.toThrow();
  }
});

describe.each(["4.4.0", "3.9.2"])("responses of Kafka %s", (kafkaVersion) => {
  test("Metadata: broker, controller, topic id and partitions", () => {
    const f = load("metadata", kafkaVersion);
    const md = decode(f, metadataCall(f.version));
    const nodeId = Number(f.context.nodeId);
    expect(md.errorCode).toBe(0);
    expect(md.clusterId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(md.controllerId).toBe(nodeId);
    expect(md.brokers).toEqual([{ nodeId, host: "127.0.0.1", port: Number(f.context.port), rack: null }]);
    const a = md.topics.find((t) => t.name === f.context.topicA);
    expect(a).toMatchObject({ errorCode: 0, internal: false, topicId: f.context.topicId });
    expect(a?.partitions.map((p) => [p.partition, p.leader, p.errorCode]).toSorted()).toEqual([
      [0, nodeId, 0],
      [1, nodeId, 0],
      [2, nodeId, 0],
    ]);
    expect(md.topics.find((t) => t.name === "__consumer_offsets")?.internal).toBe(true);
  });

  test("DescribeGroups: a Stable kafkajs group, an Empty group and a Dead one", () => {
    const f = load("describe-groups", kafkaVersion);
    const groups = decode(f, describeGroupsCall(f.version, []));
    const live = byGroup(groups, f.context.liveGroup);
    expect(live).toMatchObject({
      errorCode: 0,
      errorMessage: null,
      state: "Stable",
      protocolType: "consumer",
      protocol: "RoundRobinAssigner",
    });
    expect(live?.members).toHaveLength(1);
    const m = live!.members[0]!;
    expect(m).toMatchObject({
      groupInstanceId: null,
      clientId: f.context.clientId,
      clientHost: "/127.0.0.1",
    });
    expect(decodeSubscription(m.metadata)).toMatchObject({
      topics: [f.context.topicA],
      userData: Buffer.alloc(0),
    });
    const assignment = decodeAssignment(m.assignment)?.assignment.map((a) => ({
      ...a,
      partitions: a.partitions.toSorted(),
    }));
    expect(assignment).toEqual([{ topic: f.context.topicA, partitions: [0, 1, 2] }]);
    expect(byGroup(groups, f.context.committedGroup)).toMatchObject({
      state: "Empty",
      protocol: "",
      members: [],
    });
    // An unknown group: Dead, and from v6 on also GROUP_ID_NOT_FOUND.
    expect(byGroup(groups, f.context.idleGroup)).toMatchObject({
      errorCode: f.version >= 6 ? 69 : 0,
      state: "Dead",
      members: [],
    });
  });

  test("OffsetFetch (multi-group): committed, uncommitted (-1) and a group without commits", () => {
    const f = load("offset-fetch", kafkaVersion);
    const groups = decode(f, offsetFetchGroupsCall(f.version, []));
    const offsets = (id: string | undefined) =>
      byGroup(groups, id)?.topics.flatMap((t) =>
        t.partitions.map((p) => [t.topic, p.partition, p.offset, p.errorCode]),
      );
    const topic = f.context.topicA;
    expect(offsets(f.context.liveGroup)?.toSorted()).toEqual([
      [topic, 0, 5n, 0],
      [topic, 1, 3n, 0],
    ]);
    expect(offsets(f.context.committedGroup)).toEqual([
      [topic, 0, 3n, 0],
      [topic, 1, -1n, 0],
      [topic, 2, -1n, 0],
    ]);
    expect(byGroup(groups, f.context.idleGroup)).toEqual({
      groupId: f.context.idleGroup,
      errorCode: 0,
      topics: [],
    });
  });

  test("ListOffsets earliest: offset 0 on every partition", () => {
    const f = load("list-offsets-earliest", kafkaVersion);
    const res = decode(f, listOffsetsCall(f.version, [], -2n, 0));
    expect(res.map((r) => [r.topic, r.partition, r.offset, r.errorCode]).toSorted()).toEqual([
      [f.context.topicA, 0, 0n, 0],
      [f.context.topicA, 1, 0n, 0],
      [f.context.topicA, 2, 0n, 0],
    ]);
  });

  test("ConsumerGroupDescribe on classic groups: an error per group", () => {
    const f = load("consumer-group-describe-classic", kafkaVersion);
    const groups = decode(f, consumerGroupDescribeCall(f.version, []));
    // 4.x: GROUP_ID_NOT_FOUND (69); 3.9 without the new coordinator: UNSUPPORTED_VERSION (35)
    const code = kafkaVersion.startsWith("3.") ? 35 : 69;
    expect(groups.map((g) => [g.groupId, g.errorCode, g.members.length]).toSorted()).toEqual(
      [
        [f.context.liveGroup, code, 0],
        [f.context.committedGroup, code, 0],
      ].toSorted(),
    );
  });
});

describe("KIP-848 group of Kafka 4.4.0", () => {
  test("ConsumerGroupDescribe v1: epochs, assignor, member and assignment by topic id", () => {
    const f = load("consumer-group-describe", "4.4.0");
    const [g] = decode(f, consumerGroupDescribeCall(f.version, []));
    expect(g).toMatchObject({
      errorCode: 0,
      errorMessage: null,
      groupId: f.context.group,
      state: "Stable",
      assignorName: "uniform",
    });
    expect(g?.assignmentEpoch).toBe(g?.groupEpoch);
    const m = g!.members[0]!;
    expect(m).toMatchObject({
      memberEpoch: g?.groupEpoch,
      instanceId: null,
      rackId: null,
      clientId: "gw-wire-848-client",
      clientHost: "/127.0.0.1",
      subscribedTopicNames: [f.context.topicB],
      memberType: 1,
    });
    expect(m.assignment).toEqual([
      {
        topicId: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/) as string,
        topicName: f.context.topicB,
        partitions: [0, 1],
      },
    ]);
    expect(m.targetAssignment).toEqual(m.assignment);
  });

  test("DescribeGroups v6 on it: Dead, GROUP_ID_NOT_FOUND with a message", () => {
    const f = load("describe-groups-consumer-protocol", "4.4.0");
    const [g] = decode(f, describeGroupsCall(f.version, []));
    expect(g).toMatchObject({ groupId: f.context.group, errorCode: 69, state: "Dead", members: [] });
    expect(g?.errorMessage).toMatch(/not a classic group/);
  });
});

describe("request bodies", () => {
  const body = <T>(call: WireCall<T>) => {
    const e = new Encoder(call.flexible);
    call.encode(e);
    return e.toBuffer().toString("hex");
  };

  test.each<{ label: string; call: WireCall<unknown>; hex: string }>([
    { label: "ListGroups v5: empty states and types filters", call: listGroupsCall(5), hex: "010100" },
    { label: "ListGroups v4: empty states filter", call: listGroupsCall(4), hex: "0100" },
    { label: "ListGroups v2: no fields", call: listGroupsCall(2), hex: "" },
    {
      label: "FindCoordinator v4: key type 0 (group), two keys",
      call: findCoordinatorsCall(4, ["a", "bc"]),
      hex: "00" + "03" + "0261" + "036263" + "00",
    },
    {
      label: "Metadata v13: all topics (null), no auto-creation, no authorized operations",
      call: metadataCall(13),
      hex: "00" + "00" + "00" + "00",
    },
    {
      label: "Metadata v8: classic null array and three booleans",
      call: metadataCall(8),
      hex: "ffffffff" + "00" + "00" + "00",
    },
    {
      label: "OffsetFetch v9: group, null member id, epoch -1, all topics, requireStable false",
      call: offsetFetchGroupsCall(9, [{ groupId: "g", topics: null }]),
      hex: "02" + "0267" + "00" + "ffffffff" + "00" + "00" + "00" + "00",
    },
    {
      label: "ListOffsets v11: replica -1, isolation 0, one partition at -1, timeout",
      call: listOffsetsCall(11, [{ topic: "t", partitions: [0] }], -1n, 5000),
      hex:
        "ffffffff" +
        "00" +
        "02" +
        "0274" +
        "02" +
        "00000000" +
        "ffffffff" +
        "ffffffffffffffff" +
        "00" +
        "00" +
        "00001388" +
        "00",
    },
  ])("$label", ({ call, hex }) => {
    expect(body(call)).toBe(hex);
  });
});
