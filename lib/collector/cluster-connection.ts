import type { Cluster } from "../db/client";
import type { KafkaConnectionConfig } from "../kafka/client";
import { unseal } from "../secrets";

/** Opens a stored cluster row into what the Kafka adapter needs. Secrets stay in memory. */
export function connectionFromRow(row: Cluster, secretKey: Buffer): KafkaConnectionConfig {
  const sasl =
    row.saslMechanism && row.saslUsername && row.saslPasswordEnc
      ? {
          mechanism: row.saslMechanism as "plain" | "scram-sha-256" | "scram-sha-512",
          username: row.saslUsername,
          password: unseal(row.saslPasswordEnc, secretKey),
        }
      : undefined;
  const tls = row.tlsEnabled
    ? {
        rejectUnauthorized: row.tlsRejectUnauthorized,
        ...(row.tlsCa ? { ca: row.tlsCa } : {}),
        ...(row.tlsCert ? { cert: row.tlsCert } : {}),
        ...(row.tlsKeyEnc ? { key: unseal(row.tlsKeyEnc, secretKey) } : {}),
      }
    : undefined;
  return { clusterName: row.name, brokers: row.brokers, clientId: row.clientId, sasl, tls };
}

/** What, when changed in a row, requires a new connection. */
export function connectionFingerprint(row: Cluster): string {
  return JSON.stringify([
    row.brokers,
    row.clientId,
    row.saslMechanism,
    row.saslUsername,
    row.saslPasswordEnc,
    row.tlsEnabled,
    row.tlsCa,
    row.tlsCert,
    row.tlsKeyEnc,
    row.tlsRejectUnauthorized,
  ]);
}
