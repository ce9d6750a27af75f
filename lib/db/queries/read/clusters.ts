import type { BrokerInfo } from "../../../domain/types";
import type { PrismaClient } from "../../client";

// Read side of clusters: look-ups by name or id and the detail view. Public shapes only: no
// secret, sealed or not, leaves this module.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface ClusterRef {
  id: string;
  name: string;
  pollIntervalMs: number;
}

/** A cluster by name, or by id when the text is a uuid (a name wins over an id). */
export async function findCluster(db: PrismaClient, ref: string): Promise<ClusterRef | null> {
  const select = { id: true, name: true, pollIntervalMs: true };
  const byName = await db.cluster.findUnique({ where: { name: ref }, select });
  if (byName || !UUID.test(ref)) return byName;
  return db.cluster.findUnique({ where: { id: ref.toLowerCase() }, select });
}

export interface ClusterDetail {
  id: string;
  name: string;
  bootstrap: string[];
  enabled: boolean;
  pollIntervalMs: number;
  sessionTimeoutMs: number;
  maxPollIntervalMs: number;
  commitIntervalMs: number;
  auth: { sasl: string | null; tls: boolean };
  status: {
    state: string;
    lastPollAt: Date;
    lastSuccessAt: Date | null;
    lastPollDurationMs: number;
    lastError: string | null;
    consecutiveFailures: number;
    kafkaClusterId: string | null;
    collectorId: string | null;
    requestCount: number | null;
  } | null;
  controllerId: number | null;
  brokers: BrokerInfo[];
  counts: {
    topics: number | null;
    partitions: number | null;
    groups: number;
    deletedGroups: number;
    openIncidents: number;
  };
  groupsByState: Record<string, number>;
}

export async function loadClusterDetail(db: PrismaClient, id: string): Promise<ClusterDetail | null> {
  const [c, byState, openIncidents] = await Promise.all([
    db.cluster.findUnique({ where: { id }, include: { status: true } }),
    db.$queryRaw<{ state: string; deleted: boolean; n: bigint }[]>`
      SELECT state, deleted_at IS NOT NULL AS deleted, count(*) AS n
      FROM consumer_group WHERE cluster_id = ${id}::uuid
      GROUP BY state, deleted_at IS NOT NULL`,
    db.incident.count({ where: { clusterId: id, state: "open" } }),
  ]);
  if (!c) return null;
  const groupsByState: Record<string, number> = {};
  let groups = 0;
  let deletedGroups = 0;
  for (const r of byState) {
    if (r.deleted) {
      deletedGroups += Number(r.n);
    } else {
      groups += Number(r.n);
      groupsByState[r.state] = Number(r.n);
    }
  }
  const s = c.status;
  return {
    id: c.id,
    name: c.name,
    bootstrap: c.brokers,
    enabled: c.enabled,
    pollIntervalMs: c.pollIntervalMs,
    sessionTimeoutMs: c.sessionTimeoutMs,
    maxPollIntervalMs: c.maxPollIntervalMs,
    commitIntervalMs: c.commitIntervalMs,
    auth: { sasl: c.saslMechanism, tls: c.tlsEnabled },
    status: s && {
      state: s.state,
      lastPollAt: s.lastPollAt,
      lastSuccessAt: s.lastSuccessAt,
      lastPollDurationMs: s.lastPollDurationMs,
      lastError: s.lastError,
      consecutiveFailures: s.consecutiveFailures,
      kafkaClusterId: s.kafkaClusterId,
      collectorId: s.collectorId,
      requestCount: s.requestCount,
    },
    controllerId: s?.controllerId ?? null,
    brokers: (s?.brokers ?? []) as unknown as BrokerInfo[],
    counts: {
      topics: s?.topicCount ?? null,
      partitions: s?.partitionCount ?? null,
      groups,
      deletedGroups,
      openIncidents,
    },
    groupsByState,
  };
}
