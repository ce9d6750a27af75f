// What one poll cycle saw of one cluster. Produced by the Kafka adapter, consumed by the pure
// core (timelines, lag, alerts) and persisted by the collector. Offsets are bigint: Kafka
// offsets are int64 and the lag math must not lose precision.

import type { BrokerInfo, TopicPartitions } from "./types";

export type GroupType = "classic" | "consumer" | "share" | "streams" | "unknown";

/** Classic: Empty, PreparingRebalance, CompletingRebalance, Stable, Dead.
 *  Consumer (KIP-848): Empty, Assigning, Reconciling, Stable, Dead. Unknown values pass through. */
export type GroupState = string;

export interface PartitionOffsets {
  partition: number;
  leader: number | null;
  logStartOffset: bigint | null;
  logEndOffset: bigint | null;
}

export interface TopicSnapshot {
  name: string;
  topicId: string | null;
  internal: boolean;
  partitions: PartitionOffsets[];
}

export interface MemberSnapshot {
  memberId: string;
  groupInstanceId: string | null;
  clientId: string;
  clientHost: string;
  subscribedTopics: string[];
  /** Regular-expression subscription (KIP-848), when the member uses one. */
  subscribedTopicRegex: string | null;
  assignment: TopicPartitions[];
  /** KIP-848 only. */
  memberEpoch: number | null;
  targetAssignment: TopicPartitions[] | null;
}

export interface CommittedOffset {
  topic: string;
  partition: number;
  /** null: the group has no commit for this partition (Kafka's -1). */
  offset: bigint | null;
  leaderEpoch: number | null;
  metadata: string | null;
}

export interface PartitionLag {
  topic: string;
  partition: number;
  committedOffset: bigint | null;
  logEndOffset: bigint | null;
  /** null when unknown: no commit, or no log-end offset for the partition. Never negative. */
  lag: bigint | null;
}

export interface GroupLag {
  /** Sum over partitions with a known lag. */
  total: bigint;
  /** Max over partitions with a known lag; null when none is known. */
  max: bigint | null;
  /** Partitions with a commit but no known lag, or assigned without a commit. */
  unknownPartitions: number;
  partitions: PartitionLag[];
}

export interface GroupSnapshot {
  groupId: string;
  type: GroupType;
  state: GroupState;
  protocolType: string;
  /** Classic: the assignor chosen by the leader (range, roundrobin, cooperative-sticky...).
   *  Consumer: the server-side assignor. */
  assignor: string | null;
  coordinatorId: number | null;
  members: MemberSnapshot[];
  /** KIP-848 only. */
  groupEpoch: number | null;
  assignmentEpoch: number | null;
  offsets: CommittedOffset[];
  lag: GroupLag;
  /** Errors specific to this group in this cycle (e.g. COORDINATOR_NOT_AVAILABLE). */
  errors: string[];
}

export interface PollFacts {
  startedAt: Date;
  durationMs: number;
  /** Kafka requests sent during the cycle, by API name. */
  requests: Record<string, number>;
  errors: string[];
}

export interface ClusterSnapshot {
  kafkaClusterId: string | null;
  controllerId: number | null;
  brokers: BrokerInfo[];
  topics: TopicSnapshot[];
  groups: GroupSnapshot[];
  poll: PollFacts;
}
