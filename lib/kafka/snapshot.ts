import { groupLag, tpKey } from "../domain/lag";
import type {
  ClusterSnapshot,
  CommittedOffset,
  GroupSnapshot,
  GroupType,
  MemberSnapshot,
  PartitionOffsets,
  TopicSnapshot,
} from "../domain/snapshot";
import type { TopicPartitions } from "../domain/types";
import type {
  ClassicGroupDescription,
  ConsumerGroupDescription,
  GroupOffsets,
  KafkaWire,
  ListedGroup,
  PartitionOffset,
  TopicPartition,
} from "./wire";

// One poll cycle: turns what the brokers answer into a ClusterSnapshot. Requests are batched
// per broker, so their number grows with brokers, not with groups:
//   Metadata x1; ListGroups x brokers (each lists the groups it coordinates, which also tells
//   us the coordinator); per coordinator one DescribeGroups and/or ConsumerGroupDescribe and
//   one OffsetFetch (v8+, 500 groups per request); per partition leader two ListOffsets
//   (latest, earliest).

export interface SnapshotResult {
  snapshot: ClusterSnapshot;
  /** True when every broker answered ListGroups: only then can a missing group count as deleted. */
  listingComplete: boolean;
}

const describeErr = (e: unknown) => (e instanceof Error ? e.message : String(e)).slice(0, 500);

function groupTypeOf(listed: ListedGroup): GroupType | null {
  switch (listed.type?.toLowerCase()) {
    case "classic":
      return "classic";
    case "consumer":
      return "consumer";
    case "share":
      return "share";
    case "streams":
      return "streams";
    case undefined:
      return null;
    default:
      return "unknown";
  }
}

const sortTps = (tps: TopicPartitions[]): TopicPartitions[] =>
  tps
    .map((t) => ({ topic: t.topic, partitions: [...t.partitions].sort((a, b) => a - b) }))
    .sort((a, b) => (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : 0));

function classicMembers(g: ClassicGroupDescription): MemberSnapshot[] {
  return g.members.map((m) => ({
    memberId: m.memberId,
    groupInstanceId: m.groupInstanceId,
    clientId: m.clientId,
    clientHost: m.clientHost,
    subscribedTopics: [...(m.subscription?.topics ?? [])].sort(),
    subscribedTopicRegex: null,
    assignment: sortTps(m.assignment?.assignment ?? []),
    memberEpoch: null,
    targetAssignment: null,
  }));
}

function consumerMembers(g: ConsumerGroupDescription): MemberSnapshot[] {
  return g.members.map((m) => ({
    memberId: m.memberId,
    groupInstanceId: m.instanceId,
    clientId: m.clientId,
    clientHost: m.clientHost,
    subscribedTopics: [...m.subscribedTopicNames].sort(),
    subscribedTopicRegex: m.subscribedTopicRegex,
    assignment: sortTps(m.assignment),
    memberEpoch: m.memberEpoch,
    targetAssignment: sortTps(m.targetAssignment),
  }));
}

interface Described {
  type: GroupType;
  state: string;
  protocolType: string;
  assignor: string | null;
  members: MemberSnapshot[];
  groupEpoch: number | null;
  assignmentEpoch: number | null;
  errors: string[];
}

/** Describes the groups one coordinator holds, each with the API of its type. */
async function describeOnCoordinator(
  wire: KafkaWire,
  nodeId: number,
  listed: ListedGroup[],
  errors: string[],
): Promise<Map<string, Described>> {
  const out = new Map<string, Described>();
  const classicIds: string[] = [];
  const consumerIds: string[] = [];
  for (const l of listed) {
    const t = groupTypeOf(l);
    if (t === "consumer") consumerIds.push(l.groupId);
    else if (t === "classic" || t === null) classicIds.push(l.groupId);
    else {
      // Share and streams groups: listed with their state, not described (yet).
      out.set(l.groupId, {
        type: t,
        state: l.state ?? "Unknown",
        protocolType: l.protocolType,
        assignor: null,
        members: [],
        groupEpoch: null,
        assignmentEpoch: null,
        errors: [],
      });
    }
  }
  const listedById = new Map(listed.map((l) => [l.groupId, l]));

  if (classicIds.length > 0) {
    try {
      for (const g of await wire.describeClassicGroups(nodeId, classicIds)) {
        const l = listedById.get(g.groupId);
        // Without ListGroups v5 a KIP-848 group looks like a classic one; DescribeGroups then says
        // Dead / GROUP_ID_NOT_FOUND although the listing had it: ask ConsumerGroupDescribe.
        if (
          groupTypeOf(l!) === null &&
          (g.error === "GROUP_ID_NOT_FOUND" || (g.state === "Dead" && l?.state !== "Dead"))
        ) {
          consumerIds.push(g.groupId);
          continue;
        }
        out.set(g.groupId, {
          type: "classic",
          state: g.state,
          protocolType: g.protocolType,
          assignor: g.protocol || null,
          members: classicMembers(g),
          groupEpoch: null,
          assignmentEpoch: null,
          errors: g.error
            ? [`DescribeGroups: ${g.error}${g.errorMessage ? ` (${g.errorMessage})` : ""}`]
            : [],
        });
      }
    } catch (e) {
      errors.push(`DescribeGroups on broker ${nodeId}: ${describeErr(e)}`);
    }
  }
  if (consumerIds.length > 0) {
    try {
      for (const g of await wire.describeConsumerGroups(nodeId, consumerIds)) {
        out.set(g.groupId, {
          type: "consumer",
          state: g.error ? (listedById.get(g.groupId)?.state ?? "Unknown") : g.state,
          protocolType: listedById.get(g.groupId)?.protocolType ?? "consumer",
          assignor: g.assignorName || null,
          members: consumerMembers(g),
          groupEpoch: g.error ? null : g.epoch,
          assignmentEpoch: g.error ? null : g.assignmentEpoch,
          errors: g.error
            ? [`ConsumerGroupDescribe: ${g.error}${g.errorMessage ? ` (${g.errorMessage})` : ""}`]
            : [],
        });
      }
    } catch (e) {
      errors.push(`ConsumerGroupDescribe on broker ${nodeId}: ${describeErr(e)}`);
    }
  }
  return out;
}

async function endOffsets(
  wire: KafkaWire,
  byLeader: Map<number, TopicPartition[]>,
  timestamp: -1n | -2n,
  errors: string[],
): Promise<Map<string, bigint | null>> {
  const out = new Map<string, bigint | null>();
  await Promise.all(
    [...byLeader].map(async ([leader, partitions]) => {
      let res: PartitionOffset[];
      try {
        res = await wire.listOffsets(leader, partitions, timestamp);
      } catch (e) {
        errors.push(
          `ListOffsets(${timestamp === -1n ? "latest" : "earliest"}) on broker ${leader}: ${describeErr(e)}`,
        );
        return;
      }
      for (const r of res) out.set(tpKey(r.topic, r.partition), r.error ? null : r.offset);
    }),
  );
  return out;
}

export async function takeSnapshot(wire: KafkaWire, now: () => number = Date.now): Promise<SnapshotResult> {
  const started = now();
  wire.resetRequestCounts();
  const errors: string[] = [];

  // A cluster whose metadata cannot be read fails the whole cycle (the caller records it).
  const md = await wire.metadata();

  // 1. Groups, from every broker; the broker that lists a group is its coordinator.
  const listings = await Promise.allSettled(md.brokers.map((b) => wire.listGroups(b.nodeId)));
  let listingComplete = true;
  const coordinatorOf = new Map<string, number>();
  const byCoordinator = new Map<number, ListedGroup[]>();
  listings.forEach((r, i) => {
    const nodeId = md.brokers[i]!.nodeId;
    if (r.status === "rejected") {
      listingComplete = false;
      errors.push(`ListGroups on broker ${nodeId}: ${describeErr(r.reason)}`);
      return;
    }
    for (const g of r.value) {
      // A coordinator that moved mid-cycle may be listed by two brokers: keep the first.
      if (coordinatorOf.has(g.groupId)) continue;
      coordinatorOf.set(g.groupId, nodeId);
      const list = byCoordinator.get(nodeId) ?? [];
      list.push(g);
      byCoordinator.set(nodeId, list);
    }
  });

  // 2. Per coordinator: describe and committed offsets.
  const described = new Map<string, Described>();
  const committed = new Map<string, GroupOffsets>();
  await Promise.all(
    [...byCoordinator].map(async ([nodeId, listed]) => {
      const [d, offsets] = await Promise.all([
        describeOnCoordinator(wire, nodeId, listed, errors),
        wire
          .fetchOffsets(
            nodeId,
            listed.filter((l) => !["share", "streams"].includes(groupTypeOf(l) ?? "")).map((l) => l.groupId),
          )
          .catch((e: unknown) => {
            errors.push(`OffsetFetch on broker ${nodeId}: ${describeErr(e)}`);
            return new Map<string, GroupOffsets>();
          }),
      ]);
      d.forEach((v, k) => described.set(k, v));
      offsets.forEach((v, k) => committed.set(k, v));
    }),
  );

  // 3. Log-start and log-end offsets of every partition, one request per leader and kind,
  //    read after the commits so that lag is never understated by a commit racing the read.
  const byLeader = new Map<number, TopicPartition[]>();
  for (const t of md.topics) {
    if (t.internal) continue;
    for (const p of t.partitions) {
      if (p.leader === null || p.leader < 0) continue;
      const list = byLeader.get(p.leader) ?? [];
      list.push({ topic: t.name, partition: p.partition });
      byLeader.set(p.leader, list);
    }
  }
  const [logEnd, logStart] = await Promise.all([
    endOffsets(wire, byLeader, -1n, errors),
    endOffsets(wire, byLeader, -2n, errors),
  ]);

  const topics: TopicSnapshot[] = md.topics.map((t) => ({
    name: t.name,
    topicId: t.topicId,
    internal: t.internal,
    partitions: t.partitions.map((p): PartitionOffsets => ({
      partition: p.partition,
      leader: p.leader !== null && p.leader >= 0 ? p.leader : null,
      logStartOffset: logStart.get(tpKey(t.name, p.partition)) ?? null,
      logEndOffset: logEnd.get(tpKey(t.name, p.partition)) ?? null,
    })),
  }));

  const groups: GroupSnapshot[] = [];
  for (const [groupId, nodeId] of coordinatorOf) {
    const listed = byCoordinator.get(nodeId)!.find((l) => l.groupId === groupId)!;
    const d: Described = described.get(groupId) ?? {
      type: groupTypeOf(listed) ?? "unknown",
      state: listed.state ?? "Unknown",
      protocolType: listed.protocolType,
      assignor: null,
      members: [],
      groupEpoch: null,
      assignmentEpoch: null,
      errors: ["not described this cycle"],
    };
    const fetched = committed.get(groupId);
    const offsets: CommittedOffset[] = (fetched?.offsets ?? [])
      .filter((o) => o.error === null)
      .map((o) => ({
        topic: o.topic,
        partition: o.partition,
        offset: o.offset,
        leaderEpoch: o.leaderEpoch,
        metadata: o.metadata,
      }));
    const groupErrors = [...d.errors];
    if (fetched?.error) groupErrors.push(`OffsetFetch: ${fetched.error}`);
    const assigned = d.members.flatMap((m) => m.assignment);
    groups.push({
      groupId,
      type: d.type,
      state: d.state,
      protocolType: d.protocolType,
      assignor: d.assignor,
      coordinatorId: nodeId,
      members: d.members,
      groupEpoch: d.groupEpoch,
      assignmentEpoch: d.assignmentEpoch,
      offsets,
      lag: groupLag(offsets, assigned, logEnd),
      errors: groupErrors,
    });
  }
  groups.sort((a, b) => (a.groupId < b.groupId ? -1 : a.groupId > b.groupId ? 1 : 0));

  return {
    snapshot: {
      kafkaClusterId: md.clusterId,
      controllerId: md.controllerId,
      brokers: md.brokers,
      topics,
      groups,
      poll: {
        startedAt: new Date(started),
        durationMs: now() - started,
        requests: wire.requestCounts,
        errors,
      },
    },
    listingComplete,
  };
}
