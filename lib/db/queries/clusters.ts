import type { ClusterConfig } from "../../config/cluster-config";
import type { ClusterHealth } from "../../domain/poll-schedule";
import type { BrokerInfo } from "../../domain/types";
import { seal } from "../../secrets";
import type { Cluster, PrismaClient } from "../client";

// Every Prisma call about clusters and their status. Secrets leave this module only sealed
// (for the collector to open) and never in the public shapes returned to the web app.

export async function seedClusters(
  db: PrismaClient,
  configs: ClusterConfig[],
  secretKey: Buffer,
  source: "env" | "local" = "env",
): Promise<void> {
  for (const c of configs) {
    const tls = c.tls === true ? { rejectUnauthorized: true } : c.tls || undefined;
    const data = {
      brokers: c.brokers,
      clientId: c.clientId,
      saslMechanism: c.sasl?.mechanism ?? null,
      saslUsername: c.sasl?.username ?? null,
      saslPasswordEnc: c.sasl ? seal(c.sasl.password, secretKey) : null,
      tlsEnabled: c.tls !== undefined && c.tls !== false,
      tlsCa: tls?.ca ?? null,
      tlsCert: tls?.cert ?? null,
      tlsKeyEnc: tls?.key ? seal(tls.key, secretKey) : null,
      tlsRejectUnauthorized: tls?.rejectUnauthorized ?? true,
      pollIntervalMs: c.pollIntervalMs,
      sessionTimeoutMs: c.sessionTimeoutMs,
      maxPollIntervalMs: c.maxPollIntervalMs,
      commitIntervalMs: c.commitIntervalMs,
      enabled: c.enabled,
      source,
    };
    await db.cluster.upsert({ where: { name: c.name }, create: { name: c.name, ...data }, update: data });
  }
}

/** Clusters the collector should poll, secrets still sealed. */
export async function listEnabledClusters(db: PrismaClient): Promise<Cluster[]> {
  return db.cluster.findMany({ where: { enabled: true }, orderBy: { name: "asc" } });
}

export interface PollRecord {
  clusterId: string;
  state: ClusterHealth;
  polledAt: Date;
  durationMs: number;
  error: string | null;
  consecutiveFailures: number;
  kafkaClusterId?: string | null;
  controllerId?: number | null;
  brokers?: BrokerInfo[];
  collectorId: string;
  topicCount?: number | null;
  partitionCount?: number | null;
  groupCount?: number | null;
  requestCount?: number | null;
}

export async function recordPoll(db: PrismaClient, r: PollRecord): Promise<void> {
  const common = {
    state: r.state,
    lastPollAt: r.polledAt,
    lastPollDurationMs: Math.round(r.durationMs),
    lastError: r.error,
    consecutiveFailures: r.consecutiveFailures,
    collectorId: r.collectorId,
    requestCount: r.requestCount ?? null,
  };
  // A failed poll keeps the last known brokers: an SRE wants to see what the cluster was.
  const seen =
    r.state === "ok"
      ? {
          lastSuccessAt: r.polledAt,
          kafkaClusterId: r.kafkaClusterId ?? null,
          controllerId: r.controllerId ?? null,
          brokers: (r.brokers ?? []) as unknown as object,
          topicCount: r.topicCount ?? null,
          partitionCount: r.partitionCount ?? null,
          groupCount: r.groupCount ?? null,
        }
      : {};
  await db.clusterStatus.upsert({
    where: { clusterId: r.clusterId },
    create: { clusterId: r.clusterId, ...common, ...seen },
    update: { ...common, ...seen },
  });
}

export interface ClusterOverview {
  id: string;
  name: string;
  bootstrap: string[];
  enabled: boolean;
  pollIntervalMs: number;
  auth: { sasl: string | null; tls: boolean };
  status: {
    state: string;
    lastPollAt: string;
    lastSuccessAt: string | null;
    lastPollDurationMs: number;
    lastError: string | null;
    consecutiveFailures: number;
    kafkaClusterId: string | null;
    controllerId: number | null;
    brokers: BrokerInfo[];
    topicCount: number | null;
    groupCount: number | null;
    requestCount: number | null;
  } | null;
}

export async function listClusterOverviews(db: PrismaClient): Promise<ClusterOverview[]> {
  const rows = await db.cluster.findMany({ include: { status: true }, orderBy: { name: "asc" } });
  return rows.map((c) => ({
    id: c.id,
    name: c.name,
    bootstrap: c.brokers,
    enabled: c.enabled,
    pollIntervalMs: c.pollIntervalMs,
    auth: { sasl: c.saslMechanism, tls: c.tlsEnabled },
    status: c.status && {
      state: c.status.state,
      lastPollAt: c.status.lastPollAt.toISOString(),
      lastSuccessAt: c.status.lastSuccessAt?.toISOString() ?? null,
      lastPollDurationMs: c.status.lastPollDurationMs,
      lastError: c.status.lastError,
      consecutiveFailures: c.status.consecutiveFailures,
      kafkaClusterId: c.status.kafkaClusterId,
      controllerId: c.status.controllerId,
      brokers: c.status.brokers as unknown as BrokerInfo[],
      topicCount: c.status.topicCount,
      groupCount: c.status.groupCount,
      requestCount: c.status.requestCount,
    },
  }));
}
