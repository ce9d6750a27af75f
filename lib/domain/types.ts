// Domain types shared by the core and its adapters. Plain data: no classes, no I/O.

export interface BrokerInfo {
  nodeId: number;
  host: string;
  port: number;
  rack: string | null;
}

export interface TopicPartitions {
  topic: string;
  partitions: number[];
}
