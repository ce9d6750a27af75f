import type { Logger } from "../../logger";
import type { KafkaConnectionConfig } from "../client";
import {
  decodeAssignment,
  decodeSubscription,
  type ConsumerAssignment,
  type ConsumerSubscription,
} from "./consumer-protocol";
import { errorName, errorOrNull } from "./errors";
import {
  consumerGroupDescribeCall,
  describeGroupsCall,
  findCoordinatorCall,
  findCoordinatorsCall,
  listGroupsCall,
  listOffsetsCall,
  metadataCall,
  offsetFetchCall,
  offsetFetchGroupsCall,
  type OffsetFetchGroupRequest,
  type OffsetFetchGroupResult,
  type TopicIdPartitions,
  type TopicPartitionList,
} from "./messages";
import { API, KafkaWireError, pickVersion, type ApiSpec, type WireCall } from "./protocol";
import { KafkajsTransport, type BrokerHandle, type WireOptions } from "./transport";

// Group-monitoring requests kafkajs lacks (ListGroups v4/v5, FindCoordinator batches, DescribeGroups
// v5+, ConsumerGroupDescribe, OffsetFetch v8+ multi-group), sent over kafkajs's connections.
// Per-group and per-partition Kafka errors are values in the results; a call rejects only when
// its broker cannot be reached, answers a top-level error, or the response does not decode.

export { KafkaWireError } from "./protocol";
export { errorName } from "./errors";
export type { ConsumerAssignment, ConsumerSubscription, TopicPartitions } from "./consumer-protocol";

export interface KafkaWireOptions extends WireOptions {
  /**
   * Caps the version used per API (e.g. { OffsetFetch: 7 }): exercises the fallback paths in
   * tests, and works around a broker that mishandles a version it advertises.
   */
  maxVersions?: Partial<Record<keyof typeof API, number>>;
}

type KnownApi = ApiSpec & { name: keyof typeof API };

export interface TopicPartition {
  topic: string;
  partition: number;
}

export interface ClusterMetadata {
  clusterId: string | null;
  controllerId: number | null;
  brokers: { nodeId: number; host: string; port: number; rack: string | null }[];
  topics: {
    name: string;
    topicId: string | null;
    internal: boolean;
    errorCode: number;
    partitions: { partition: number; leader: number | null; errorCode: number }[];
  }[];
}

export interface ListedGroup {
  groupId: string;
  /** ListGroups v4+, else null */
  state: string | null;
  /** ListGroups v5+ ("classic", "consumer", "share", "streams"), else null */
  type: string | null;
  protocolType: string;
}

export type Coordinator =
  { nodeId: number; host: string; port: number } | { error: string; message: string | null };

export interface ClassicGroupMember {
  memberId: string;
  groupInstanceId: string | null;
  clientId: string;
  clientHost: string;
  /** protocolType "consumer" only; null when empty (group not Stable) or undecodable */
  subscription: ConsumerSubscription | null;
  assignment: ConsumerAssignment | null;
  /** raw sizes, to tell "empty" from "undecodable" */
  metadataBytes: number;
  assignmentBytes: number;
}

export interface ClassicGroupDescription {
  groupId: string;
  error: string | null;
  errorMessage: string | null;
  /** Empty, PreparingRebalance, CompletingRebalance, Stable, Dead */
  state: string;
  protocolType: string;
  /** the assignor name for consumer groups ("" unless Stable) */
  protocol: string;
  members: ClassicGroupMember[];
}

export interface ConsumerGroupTopicPartitions {
  /** the topic name, or the topic id when the name is unknown */
  topic: string;
  topicId: string | null;
  partitions: number[];
}

export interface ConsumerGroupMember {
  memberId: string;
  instanceId: string | null;
  rackId: string | null;
  memberEpoch: number;
  clientId: string;
  clientHost: string;
  subscribedTopicNames: string[];
  subscribedTopicRegex: string | null;
  assignment: ConsumerGroupTopicPartitions[];
  targetAssignment: ConsumerGroupTopicPartitions[];
  /** ConsumerGroupDescribe v1+: "classic" for a classic-protocol member of a consumer group */
  memberType: "classic" | "consumer" | null;
}

export interface ConsumerGroupDescription {
  groupId: string;
  error: string | null;
  errorMessage: string | null;
  /** Empty, Assigning, Reconciling, Stable, Dead */
  state: string;
  epoch: number;
  assignmentEpoch: number;
  assignorName: string;
  members: ConsumerGroupMember[];
}

export interface CommittedOffset {
  topic: string;
  partition: number;
  /** null: nothing committed (-1) */
  offset: bigint | null;
  leaderEpoch: number | null;
  metadata: string | null;
  error: string | null;
}

export interface GroupOffsets {
  error: string | null;
  offsets: CommittedOffset[];
}

/** A group and, optionally, the partitions to fetch (default: every partition it committed). */
export type OffsetFetchTarget = string | { groupId: string; partitions: TopicPartition[] | null };

export interface PartitionOffset {
  topic: string;
  partition: number;
  offset: bigint | null;
  error: string | null;
}

const FIND_COORDINATOR_BATCH = 500;
const OFFSET_FETCH_BATCH = 500;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function groupByTopic(partitions: readonly TopicPartition[]): TopicPartitionList[] {
  const byTopic = new Map<string, Set<number>>();
  for (const { topic, partition } of partitions) {
    const set = byTopic.get(topic) ?? new Set<number>();
    set.add(partition);
    byTopic.set(topic, set);
  }
  return [...byTopic].map(([topic, set]) => ({ topic, partitions: [...set].sort((a, b) => a - b) }));
}

/** Results in the order the groups were asked for (brokers answer in their own order). */
function inRequestOrder<T extends { groupId: string }>(items: T[], requested: readonly string[]): T[] {
  const rank = new Map(requested.map((g, i) => [g, i]));
  return [...items].sort((a, b) => (rank.get(a.groupId) ?? Infinity) - (rank.get(b.groupId) ?? Infinity));
}

function memberType(t: number): ConsumerGroupMember["memberType"] {
  return t === 0 ? "classic" : t === 1 ? "consumer" : null;
}

export class KafkaWire {
  private topicNamesById = new Map<string, string>();

  private constructor(
    private readonly counter: { counts: Record<string, number> },
    private readonly transport: KafkajsTransport,
    private readonly log: Logger,
    private readonly requestTimeoutMs: number,
    private readonly maxVersions: NonNullable<KafkaWireOptions["maxVersions"]> = {},
  ) {}

  static create(config: KafkaConnectionConfig, log: Logger, options: KafkaWireOptions = {}): KafkaWire {
    const counter = { counts: {} as Record<string, number> };
    const count = (apiName: string) => {
      counter.counts[apiName] = (counter.counts[apiName] ?? 0) + 1;
    };
    return new KafkaWire(
      counter,
      KafkajsTransport.create(config, log, count, options),
      log.child({ component: "kafka-wire", cluster: config.clusterName }),
      options.requestTimeoutMs ?? config.requestTimeoutMs ?? 10_000,
      options.maxVersions,
    );
  }

  /** Highest version we (within maxVersions) and the broker both support, or null. */
  private pick(api: KnownApi, broker: BrokerHandle): number | null {
    return pickVersion(
      { min: api.min, max: Math.min(api.max, this.maxVersions[api.name] ?? api.max) },
      broker.versions(api.key),
    );
  }

  private versionFor(api: KnownApi, broker: BrokerHandle, nodeId: number | "any"): number {
    const v = this.pick(api, broker);
    const max = Math.min(api.max, this.maxVersions[api.name] ?? api.max);
    if (v === null)
      throw new KafkaWireError(
        `broker ${nodeId} supports no ${api.name} version in ${api.min}-${max} (it has ${JSON.stringify(broker.versions(api.key))})`,
        35,
      );
    return v;
  }

  private async request<T>(
    nodeId: number | "any",
    api: KnownApi,
    build: (version: number) => WireCall<T>,
  ): Promise<T> {
    const broker = await this.transport.broker(nodeId);
    return broker.send(build(this.versionFor(api, broker, nodeId)));
  }

  connect(): Promise<void> {
    return this.transport.connect();
  }

  disconnect(): Promise<void> {
    return this.transport.disconnect();
  }

  /**
   * Requests put on the wire since creation (or the last reset), by API name, every attempt
   * included: ours, plus kafkajs's connection handshake (ApiVersions, SASL) and its broker
   * discovery ("Metadata" without topics, sent when a node id is not known yet).
   */
  get requestCounts(): Record<string, number> {
    return { ...this.counter.counts };
  }

  resetRequestCounts(): void {
    this.counter.counts = {};
  }

  /** All topics, brokers, controller and cluster id, in one Metadata request. */
  async metadata(): Promise<ClusterMetadata> {
    const res = await this.request("any", API.Metadata, metadataCall);
    if (res.errorCode !== 0) throw new KafkaWireError("Metadata failed", res.errorCode);
    const topics = res.topics
      .filter((t): t is typeof t & { name: string } => t.name !== null)
      .map((t) => ({
        name: t.name,
        topicId: t.topicId,
        internal: t.internal,
        errorCode: t.errorCode,
        partitions: t.partitions
          .map((p) => ({ partition: p.partition, leader: p.leader, errorCode: p.errorCode }))
          .sort((a, b) => a.partition - b.partition),
      }))
      .sort((a, b) => a.name.localeCompare(b.name));
    this.topicNamesById = new Map(topics.flatMap((t) => (t.topicId ? [[t.topicId, t.name] as const] : [])));
    return {
      clusterId: res.clusterId,
      controllerId: res.controllerId,
      brokers: res.brokers.sort((a, b) => a.nodeId - b.nodeId),
      topics,
    };
  }

  /** The groups `nodeId` coordinates (each broker lists only its own). Rejects on a broker-level error. */
  async listGroups(nodeId: number): Promise<ListedGroup[]> {
    const res = await this.request(nodeId, API.ListGroups, listGroupsCall);
    if (res.errorCode !== 0) throw new KafkaWireError(`ListGroups on broker ${nodeId} failed`, res.errorCode);
    return res.groups
      .map((g) => ({ groupId: g.groupId, state: g.state, type: g.type, protocolType: g.protocolType }))
      .sort((a, b) => a.groupId.localeCompare(b.groupId));
  }

  /** Group coordinators: batched (FindCoordinator v4+) when supported, else one request per group. */
  async findCoordinators(groupIds: string[]): Promise<Map<string, Coordinator>> {
    const unique = [...new Set(groupIds)];
    const out = new Map<string, Coordinator>();
    const record = (r: {
      key: string;
      nodeId: number;
      host: string;
      port: number;
      errorCode: number;
      errorMessage: string | null;
    }) =>
      out.set(
        r.key,
        r.errorCode === 0
          ? { nodeId: r.nodeId, host: r.host, port: r.port }
          : { error: errorName(r.errorCode), message: r.errorMessage },
      );
    if (unique.length === 0) return out;

    const broker = await this.transport.broker("any");
    const v = this.versionFor(API.FindCoordinator, broker, "any");
    if (v >= 4) {
      for (const chunk of chunks(unique, FIND_COORDINATOR_BATCH))
        (await broker.send(findCoordinatorsCall(v, chunk))).forEach(record);
    } else {
      (await Promise.all(unique.map((g) => broker.send(findCoordinatorCall(v, g))))).forEach(record);
    }
    return new Map(unique.map((g) => [g, out.get(g) ?? { error: "NOT_IN_RESPONSE", message: null }]));
  }

  /**
   * Classic groups coordinated by `nodeId`, all in one DescribeGroups request. A consumer-protocol
   * (KIP-848) group comes back Dead without members (v6+: with GROUP_ID_NOT_FOUND).
   */
  async describeClassicGroups(nodeId: number, groupIds: string[]): Promise<ClassicGroupDescription[]> {
    if (groupIds.length === 0) return [];
    const unique = [...new Set(groupIds)];
    const groups = await this.request(nodeId, API.DescribeGroups, (v) => describeGroupsCall(v, unique));
    return inRequestOrder(groups, unique).map((g) => ({
      groupId: g.groupId,
      error: errorOrNull(g.errorCode),
      errorMessage: g.errorMessage,
      state: g.state,
      protocolType: g.protocolType,
      protocol: g.protocol,
      members: g.members.map((m) => {
        const consumer = g.protocolType === "consumer";
        return {
          memberId: m.memberId,
          groupInstanceId: m.groupInstanceId,
          clientId: m.clientId,
          clientHost: m.clientHost,
          subscription: consumer
            ? this.safeDecode(g.groupId, "metadata", () => decodeSubscription(m.metadata))
            : null,
          assignment: consumer
            ? this.safeDecode(g.groupId, "assignment", () => decodeAssignment(m.assignment))
            : null,
          metadataBytes: m.metadata.length,
          assignmentBytes: m.assignment.length,
        };
      }),
    }));
  }

  private safeDecode<T>(groupId: string, what: string, decode: () => T | null): T | null {
    try {
      return decode();
    } catch (e) {
      this.log.debug({ groupId, err: e }, `undecodable member ${what}`);
      return null;
    }
  }

  /**
   * KIP-848 consumer groups coordinated by `nodeId` (ConsumerGroupDescribe). A classic group
   * comes back with GROUP_ID_NOT_FOUND; a broker without the API gives UNSUPPORTED_VERSION per
   * group, without sending anything.
   */
  async describeConsumerGroups(nodeId: number, groupIds: string[]): Promise<ConsumerGroupDescription[]> {
    const unique = [...new Set(groupIds)];
    if (unique.length === 0) return [];
    const broker = await this.transport.broker(nodeId);
    const v = this.pick(API.ConsumerGroupDescribe, broker);
    if (v === null)
      return unique.map((groupId) => ({
        groupId,
        error: "UNSUPPORTED_VERSION",
        errorMessage: `broker ${nodeId} does not support ConsumerGroupDescribe`,
        state: "Unknown",
        epoch: -1,
        assignmentEpoch: -1,
        assignorName: "",
        members: [],
      }));
    const groups = await broker.send(consumerGroupDescribeCall(v, unique));

    const unnamed = groups.some((g) =>
      g.members.some((m) =>
        [...m.assignment, ...m.targetAssignment].some(
          (tp) => !tp.topicName && tp.topicId !== null && !this.topicNamesById.has(tp.topicId),
        ),
      ),
    );
    if (unnamed) await this.metadata();
    const named = (tps: TopicIdPartitions[]): ConsumerGroupTopicPartitions[] =>
      tps
        .map((tp) => ({
          topic:
            tp.topicName || (tp.topicId !== null ? (this.topicNamesById.get(tp.topicId) ?? tp.topicId) : ""),
          topicId: tp.topicId,
          partitions: [...tp.partitions].sort((a, b) => a - b),
        }))
        .sort((a, b) => a.topic.localeCompare(b.topic));

    return inRequestOrder(groups, unique).map((g) => ({
      groupId: g.groupId,
      error: errorOrNull(g.errorCode),
      errorMessage: g.errorMessage,
      state: g.state,
      epoch: g.groupEpoch,
      assignmentEpoch: g.assignmentEpoch,
      assignorName: g.assignorName,
      members: g.members.map((m) => ({
        memberId: m.memberId,
        instanceId: m.instanceId,
        rackId: m.rackId,
        memberEpoch: m.memberEpoch,
        clientId: m.clientId,
        clientHost: m.clientHost,
        subscribedTopicNames: m.subscribedTopicNames,
        // Brokers send "" rather than null when the member subscribed by names.
        subscribedTopicRegex: m.subscribedTopicRegex || null,
        assignment: named(m.assignment),
        targetAssignment: named(m.targetAssignment),
        memberType: memberType(m.memberType),
      })),
    }));
  }

  /**
   * Committed offsets of groups coordinated by `nodeId`: OffsetFetch v8+ with up to 500 groups per
   * request when supported, else one request per group. A group given without partitions gets
   * every partition it committed; with partitions, uncommitted ones come back with offset null.
   */
  async fetchOffsets(nodeId: number, groups: OffsetFetchTarget[]): Promise<Map<string, GroupOffsets>> {
    const requests = new Map<string, OffsetFetchGroupRequest>();
    for (const g of groups) {
      const r =
        typeof g === "string"
          ? { groupId: g, topics: null }
          : { groupId: g.groupId, topics: g.partitions === null ? null : groupByTopic(g.partitions) };
      requests.set(r.groupId, r);
    }
    const all = [...requests.values()];
    const out = new Map<string, GroupOffsets>();
    if (all.length === 0) return out;
    const record = (r: OffsetFetchGroupResult) =>
      out.set(r.groupId, {
        error: errorOrNull(r.errorCode),
        offsets: r.topics
          .flatMap((t) =>
            t.partitions.map((p) => ({
              topic: t.topic,
              partition: p.partition,
              offset: p.offset < 0n ? null : p.offset,
              leaderEpoch: p.leaderEpoch < 0 ? null : p.leaderEpoch,
              metadata: p.metadata,
              error: errorOrNull(p.errorCode),
            })),
          )
          .sort((a, b) => a.topic.localeCompare(b.topic) || a.partition - b.partition),
      });

    const broker = await this.transport.broker(nodeId);
    const v = this.versionFor(API.OffsetFetch, broker, nodeId);
    if (v >= 8) {
      for (const batch of chunks(all, OFFSET_FETCH_BATCH))
        (await broker.send(offsetFetchGroupsCall(v, batch))).forEach(record);
    } else {
      (await Promise.all(all.map((g) => broker.send(offsetFetchCall(v, g))))).forEach(record);
    }
    for (const g of all)
      if (!out.has(g.groupId)) out.set(g.groupId, { error: "NOT_IN_RESPONSE", offsets: [] });
    return out;
  }

  /**
   * Latest (-1) or earliest (-2) offsets of partitions led by `nodeId`, in one ListOffsets
   * request. Results follow the input order; offset null when the broker returned none.
   */
  async listOffsets(
    nodeId: number,
    partitions: TopicPartition[],
    timestamp: -1n | -2n,
  ): Promise<PartitionOffset[]> {
    if (partitions.length === 0) return [];
    const topics = groupByTopic(partitions);
    const res = await this.request(nodeId, API.ListOffsets, (v) =>
      listOffsetsCall(v, topics, timestamp, this.requestTimeoutMs),
    );
    const byKey = new Map(res.map((r) => [`${r.partition}:${r.topic}`, r]));
    return partitions.map(({ topic, partition }) => {
      const r = byKey.get(`${partition}:${topic}`);
      if (!r) return { topic, partition, offset: null, error: "NOT_IN_RESPONSE" };
      return { topic, partition, offset: r.offset < 0n ? null : r.offset, error: errorOrNull(r.errorCode) };
    });
  }
}
