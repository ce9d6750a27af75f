import type { Decoder, Encoder } from "./codec";
import { API, call, type WireCall } from "./protocol";

// Request encoders and response decoders, field by field and version by version, as in the
// kafka-clients schemas (see protocol.ts). Pure functions: unit tests decode captured responses.
// Every struct of a flexible version ends with a tagged-field section (`tags()`, a no-op on
// non-flexible versions).

// ---------------------------------------------------------------- Metadata (key 3)

export interface MetadataResponse {
  clusterId: string | null;
  controllerId: number | null;
  errorCode: number;
  brokers: { nodeId: number; host: string; port: number; rack: string | null }[];
  topics: {
    errorCode: number;
    name: string | null;
    topicId: string | null;
    internal: boolean;
    partitions: { partition: number; leader: number | null; leaderEpoch: number | null; errorCode: number }[];
  }[];
}

const int32s = (d: Decoder) => d.array((x) => x.int32());
const orNull = (n: number) => (n < 0 ? null : n);

/** All topics (null topic list), no auto-creation, no authorized operations. */
export function metadataCall(v: number): WireCall<MetadataResponse> {
  return call(
    API.Metadata,
    v,
    (e) => {
      e.nullableArray<string>(null, () => undefined);
      if (v >= 4) e.bool(false);
      if (v >= 8 && v <= 10) e.bool(false);
      if (v >= 8) e.bool(false);
      e.tags();
    },
    (d) => {
      if (v >= 3) d.int32();
      const brokers = d.array((x) => {
        const b = {
          nodeId: x.int32(),
          host: x.string(),
          port: x.int32(),
          rack: v >= 1 ? x.nullableString() : null,
        };
        x.tags();
        return b;
      });
      const clusterId = v >= 2 ? d.nullableString() : null;
      const controllerId = v >= 1 ? orNull(d.int32()) : null;
      const topics = d.array((x) => {
        const errorCode = x.int16();
        const name = x.nullableString();
        const topicId = v >= 10 ? x.uuid() : null;
        const internal = v >= 1 ? x.bool() : false;
        const partitions = x.array((p) => {
          const part = {
            errorCode: p.int16(),
            partition: p.int32(),
            leader: orNull(p.int32()),
            leaderEpoch: v >= 7 ? orNull(p.int32()) : null,
          };
          int32s(p); // replicas
          int32s(p); // isr
          if (v >= 5) int32s(p); // offline replicas
          p.tags();
          return part;
        });
        if (v >= 8) x.int32(); // topic authorized operations
        x.tags();
        return { errorCode, name, topicId, internal, partitions };
      });
      if (v >= 8 && v <= 10) d.int32(); // cluster authorized operations
      const errorCode = v >= 13 ? d.int16() : 0;
      d.tags();
      return { clusterId, controllerId, errorCode, brokers, topics };
    },
  );
}

// ---------------------------------------------------------------- ListGroups (key 16)

export interface ListGroupsResponse {
  errorCode: number;
  groups: { groupId: string; protocolType: string; state: string | null; type: string | null }[];
}

export function listGroupsCall(v: number): WireCall<ListGroupsResponse> {
  return call(
    API.ListGroups,
    v,
    (e) => {
      if (v >= 4) e.array<string>([], () => undefined); // states filter: all
      if (v >= 5) e.array<string>([], () => undefined); // types filter: all
      e.tags();
    },
    (d) => {
      if (v >= 1) d.int32();
      const errorCode = d.int16();
      const groups = d.array((x) => {
        const g = {
          groupId: x.string(),
          protocolType: x.string(),
          state: v >= 4 ? x.string() : null,
          type: v >= 5 ? x.string() : null,
        };
        x.tags();
        return g;
      });
      d.tags();
      return { errorCode, groups };
    },
  );
}

// ---------------------------------------------------------------- FindCoordinator (key 10)

export interface CoordinatorResult {
  key: string;
  nodeId: number;
  host: string;
  port: number;
  errorCode: number;
  errorMessage: string | null;
}

const GROUP_KEY_TYPE = 0;

/** v4+: many keys in one request. */
export function findCoordinatorsCall(v: number, keys: string[]): WireCall<CoordinatorResult[]> {
  if (v < 4) throw new Error(`FindCoordinator v${v} takes one key`);
  return call(
    API.FindCoordinator,
    v,
    (e) =>
      e
        .int8(GROUP_KEY_TYPE)
        .array(keys, (x, k) => x.string(k))
        .tags(),
    (d) => {
      d.int32();
      const coordinators = d.array((x) => {
        const c = {
          key: x.string(),
          nodeId: x.int32(),
          host: x.string(),
          port: x.int32(),
          errorCode: x.int16(),
          errorMessage: x.nullableString(),
        };
        x.tags();
        return c;
      });
      d.tags();
      return coordinators;
    },
  );
}

/** v1-3: one key per request. */
export function findCoordinatorCall(v: number, key: string): WireCall<CoordinatorResult> {
  if (v < 1 || v > 3) throw new Error(`FindCoordinator v${v} is not the single-key form`);
  return call(
    API.FindCoordinator,
    v,
    (e) => e.string(key).int8(GROUP_KEY_TYPE).tags(),
    (d) => {
      d.int32();
      const errorCode = d.int16();
      const errorMessage = d.nullableString();
      const r = { key, nodeId: d.int32(), host: d.string(), port: d.int32(), errorCode, errorMessage };
      d.tags();
      return r;
    },
  );
}

// ---------------------------------------------------------------- DescribeGroups (key 15)

export interface DescribedGroup {
  errorCode: number;
  errorMessage: string | null;
  groupId: string;
  state: string;
  protocolType: string;
  protocol: string;
  members: {
    memberId: string;
    groupInstanceId: string | null;
    clientId: string;
    clientHost: string;
    metadata: Buffer;
    assignment: Buffer;
  }[];
}

export function describeGroupsCall(v: number, groupIds: string[]): WireCall<DescribedGroup[]> {
  return call(
    API.DescribeGroups,
    v,
    (e) => {
      e.array(groupIds, (x, g) => x.string(g));
      if (v >= 3) e.bool(false);
      e.tags();
    },
    (d) => {
      if (v >= 1) d.int32();
      const groups = d.array((x) => {
        const errorCode = x.int16();
        const errorMessage = v >= 6 ? x.nullableString() : null;
        const groupId = x.string();
        const state = x.string();
        const protocolType = x.string();
        const protocol = x.string();
        const members = x.array((m) => {
          const member = {
            memberId: m.string(),
            groupInstanceId: v >= 4 ? m.nullableString() : null,
            clientId: m.string(),
            clientHost: m.string(),
            metadata: m.bytes(),
            assignment: m.bytes(),
          };
          m.tags();
          return member;
        });
        if (v >= 3) x.int32(); // authorized operations
        x.tags();
        return { errorCode, errorMessage, groupId, state, protocolType, protocol, members };
      });
      d.tags();
      return groups;
    },
  );
}

// ---------------------------------------------------------------- ConsumerGroupDescribe (key 69)

export interface TopicIdPartitions {
  topicId: string | null;
  topicName: string;
  partitions: number[];
}

export interface ConsumerGroupDescribed {
  errorCode: number;
  errorMessage: string | null;
  groupId: string;
  state: string;
  groupEpoch: number;
  assignmentEpoch: number;
  assignorName: string;
  members: {
    memberId: string;
    instanceId: string | null;
    rackId: string | null;
    memberEpoch: number;
    clientId: string;
    clientHost: string;
    subscribedTopicNames: string[];
    subscribedTopicRegex: string | null;
    assignment: TopicIdPartitions[];
    targetAssignment: TopicIdPartitions[];
    /** v1+: -1 unknown, 0 classic (joined with the classic protocol), 1 consumer */
    memberType: number;
  }[];
}

const assignmentStruct = (d: Decoder): TopicIdPartitions[] => {
  const tps = d.array((x) => {
    const tp = { topicId: x.uuid(), topicName: x.string(), partitions: x.array((p) => p.int32()) };
    x.tags();
    return tp;
  });
  d.tags();
  return tps;
};

export function consumerGroupDescribeCall(v: number, groupIds: string[]): WireCall<ConsumerGroupDescribed[]> {
  return call(
    API.ConsumerGroupDescribe,
    v,
    (e) =>
      e
        .array(groupIds, (x, g) => x.string(g))
        .bool(false)
        .tags(),
    (d) => {
      d.int32();
      const groups = d.array((x) => {
        const errorCode = x.int16();
        const errorMessage = x.nullableString();
        const groupId = x.string();
        const state = x.string();
        const groupEpoch = x.int32();
        const assignmentEpoch = x.int32();
        const assignorName = x.string();
        const members = x.array((m) => {
          const member = {
            memberId: m.string(),
            instanceId: m.nullableString(),
            rackId: m.nullableString(),
            memberEpoch: m.int32(),
            clientId: m.string(),
            clientHost: m.string(),
            subscribedTopicNames: m.array((s) => s.string()),
            subscribedTopicRegex: m.nullableString(),
            assignment: assignmentStruct(m),
            targetAssignment: assignmentStruct(m),
            memberType: v >= 1 ? m.int8() : -1,
          };
          m.tags();
          return member;
        });
        x.int32(); // authorized operations
        x.tags();
        return {
          errorCode,
          errorMessage,
          groupId,
          state,
          groupEpoch,
          assignmentEpoch,
          assignorName,
          members,
        };
      });
      d.tags();
      return groups;
    },
  );
}

// ---------------------------------------------------------------- OffsetFetch (key 9)

export interface TopicPartitionList {
  topic: string;
  partitions: number[];
}

export interface OffsetFetchGroupRequest {
  groupId: string;
  /** null: every partition the group has committed */
  topics: TopicPartitionList[] | null;
}

export interface OffsetFetchGroupResult {
  groupId: string;
  errorCode: number;
  topics: {
    topic: string;
    partitions: {
      partition: number;
      offset: bigint;
      leaderEpoch: number;
      metadata: string | null;
      errorCode: number;
    }[];
  }[];
}

const encodeTopics = (e: Encoder, topics: TopicPartitionList[] | null) =>
  e.nullableArray(topics, (x, t) =>
    x
      .string(t.topic)
      .array(t.partitions, (y, p) => y.int32(p))
      .tags(),
  );

const decodeOffsetTopics = (d: Decoder, v: number) =>
  d.array((x) => {
    const topic = x.string();
    const partitions = x.array((p) => {
      const r = {
        partition: p.int32(),
        offset: p.int64(),
        leaderEpoch: v >= 5 ? p.int32() : -1,
        metadata: p.nullableString(),
        errorCode: p.int16(),
      };
      p.tags();
      return r;
    });
    x.tags();
    return { topic, partitions };
  });

/** v8+: many groups in one request. */
export function offsetFetchGroupsCall(
  v: number,
  groups: OffsetFetchGroupRequest[],
): WireCall<OffsetFetchGroupResult[]> {
  if (v < 8) throw new Error(`OffsetFetch v${v} takes one group`);
  return call(
    API.OffsetFetch,
    v,
    (e) => {
      e.array(groups, (x, g) => {
        x.string(g.groupId);
        if (v >= 9) x.nullableString(null).int32(-1); // member id / epoch: not a member
        encodeTopics(x, g.topics).tags();
      });
      e.bool(false).tags(); // require stable
    },
    (d) => {
      d.int32();
      const results = d.array((x) => {
        const groupId = x.string();
        const topics = decodeOffsetTopics(x, v);
        const errorCode = x.int16();
        x.tags();
        return { groupId, errorCode, topics };
      });
      d.tags();
      return results;
    },
  );
}

/** v2-7: one group per request. */
export function offsetFetchCall(v: number, group: OffsetFetchGroupRequest): WireCall<OffsetFetchGroupResult> {
  if (v < 2 || v > 7) throw new Error(`OffsetFetch v${v} is not the single-group form`);
  return call(
    API.OffsetFetch,
    v,
    (e) => {
      encodeTopics(e.string(group.groupId), group.topics);
      if (v >= 7) e.bool(false);
      e.tags();
    },
    (d) => {
      if (v >= 3) d.int32();
      const topics = decodeOffsetTopics(d, v);
      const errorCode = d.int16();
      d.tags();
      return { groupId: group.groupId, errorCode, topics };
    },
  );
}

// ---------------------------------------------------------------- ListOffsets (key 2)

export interface ListOffsetsResult {
  topic: string;
  partition: number;
  errorCode: number;
  timestamp: bigint;
  offset: bigint;
  leaderEpoch: number;
}

export function listOffsetsCall(
  v: number,
  topics: TopicPartitionList[],
  timestamp: bigint,
  timeoutMs: number,
): WireCall<ListOffsetsResult[]> {
  return call(
    API.ListOffsets,
    v,
    (e) => {
      e.int32(-1); // replica id: a client
      if (v >= 2) e.int8(0); // READ_UNCOMMITTED
      e.array(topics, (x, t) => {
        x.string(t.topic).array(t.partitions, (y, p) => {
          y.int32(p);
          if (v >= 4) y.int32(-1); // current leader epoch: unknown
          y.int64(timestamp).tags();
        });
        x.tags();
      });
      if (v >= 10) e.int32(timeoutMs);
      e.tags();
    },
    (d) => {
      if (v >= 2) d.int32();
      const out: ListOffsetsResult[] = [];
      d.array((x) => {
        const topic = x.string();
        x.array((p) => {
          out.push({
            topic,
            partition: p.int32(),
            errorCode: p.int16(),
            timestamp: p.int64(),
            offset: p.int64(),
            leaderEpoch: v >= 4 ? p.int32() : -1,
          });
          p.tags();
        });
        x.tags();
      });
      d.tags();
      return out;
    },
  );
}
