// Domain types shared by the core and its adapters. Plain data: no classes, no I/O.

export interface BrokerInfo {
  nodeId: number;
  host: string;
  port: number;
  rack: string | null;
}

export interface ClusterInfo {
  kafkaClusterId: string | null;
  controllerId: number | null;
  brokers: BrokerInfo[];
}

export interface TopicPartitions {
  topic: string;
  partitions: number[];
}

export interface GroupMember {
  memberId: string;
  groupInstanceId: string | null;
  clientId: string;
  clientHost: string;
  subscribedTopics: string[];
  assignment: TopicPartitions[];
}

export interface GroupDescription {
  groupId: string;
  state: string;
  protocolType: string;
  protocol: string;
  members: GroupMember[];
}
