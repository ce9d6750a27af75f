import { Kafka, logLevel, type KafkaConfig, type LogEntry, type SASLOptions } from "kafkajs";

import type { SaslConfig, TlsConfig } from "../config/cluster-config";
import type { Logger } from "../logger";

// The only module that constructs kafkajs clients. kafkajs is unmaintained; keeping it behind
// lib/kafka/ means replacing it touches this folder only.

export interface KafkaConnectionConfig {
  clusterName: string;
  brokers: string[];
  clientId: string;
  sasl?: SaslConfig | undefined;
  tls?: TlsConfig | boolean | undefined;
  connectionTimeoutMs?: number;
  requestTimeoutMs?: number;
}

function toSasl(sasl: SaslConfig): SASLOptions {
  return { mechanism: sasl.mechanism, username: sasl.username, password: sasl.password };
}

function kafkaLogCreator(log: Logger, clusterName: string) {
  const child = log.child({ component: "kafkajs", cluster: clusterName });
  return () =>
    ({ level, log: entry }: LogEntry) => {
      const { message, ...extra } = entry;
      // kafkajs reports every retry of a failed connection at ERROR; the collector records the
      // failure on the cluster status, so these are warnings here.
      if (level <= logLevel.WARN) child.warn(extra, message);
      else if (level === logLevel.INFO) child.debug(extra, message);
      else child.trace(extra, message);
    };
}

export function createKafka(config: KafkaConnectionConfig, log: Logger): Kafka {
  const kafkaConfig: KafkaConfig = {
    clientId: config.clientId,
    brokers: config.brokers,
    connectionTimeout: config.connectionTimeoutMs ?? 3000,
    requestTimeout: config.requestTimeoutMs ?? 10_000,
    // The collector has its own backoff between cycles; inside one cycle retry briefly only.
    retry: { retries: 2, initialRetryTime: 200, maxRetryTime: 2000 },
    logLevel: logLevel.WARN,
    logCreator: kafkaLogCreator(log, config.clusterName),
  };
  if (config.sasl) kafkaConfig.sasl = toSasl(config.sasl);
  if (config.tls === true) kafkaConfig.ssl = true;
  else if (config.tls) {
    const { ca, cert, key, rejectUnauthorized } = config.tls;
    kafkaConfig.ssl = {
      rejectUnauthorized,
      ...(ca ? { ca: [ca] } : {}),
      ...(cert ? { cert } : {}),
      ...(key ? { key } : {}),
    };
  }
  return new Kafka(kafkaConfig);
}
