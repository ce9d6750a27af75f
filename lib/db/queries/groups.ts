import { createHash } from "node:crypto";

import { shouldWriteSample, type LastWritten } from "../../domain/lag-history";
import type { ClusterSnapshot, GroupSnapshot } from "../../domain/snapshot";
import type { PrismaClient } from "../client";

// Writes a cycle's groups in one statement (cost per cycle does not grow in round trips with
// the number of groups) and marks groups gone from a complete listing as deleted. Change-only:
// a row is rewritten only when something in it changed, so last_seen_at is "last changed";
// a group not deleted is current as of its cluster's last successful poll (the read side
// shows that time).

const MAX_KEY = 200;

/** Untrusted text as Postgres can store it: U+0000 is not allowed in text or jsonb. */
export function pgText(s: string): string {
  return s.includes("\u0000") ? s.replaceAll("\u0000", "\uFFFD") : s;
}

/** Key for an untrusted group id of any length: the id itself, or a prefix plus its hash. */
export function groupKey(groupId: string): string {
  if (groupId.length <= MAX_KEY && !groupId.includes("\u0000")) return groupId;
  const hash = createHash("sha256").update(groupId).digest("hex");
  return `${pgText(groupId.slice(0, MAX_KEY - 72))}…sha256:${hash}`;
}

const str = (v: bigint | null) => (v === null ? null : v.toString());

export function serializeGroup(g: GroupSnapshot) {
  return {
    key: groupKey(g.groupId),
    members: pgText(JSON.stringify(g.members)),
    partitions: JSON.stringify(
      g.lag.partitions.map((p) => ({
        topic: p.topic,
        partition: p.partition,
        committedOffset: str(p.committedOffset),
        logEndOffset: str(p.logEndOffset),
        lag: str(p.lag),
      })),
    ),
  };
}

/**
 * Remembers what was last written per group, so a cycle sends only the groups that changed
 * (the statement's own WHERE clause is the guard when another collector wrote in between).
 * One per cluster worker; forget() after a failed write.
 */
export class GroupRowFilter {
  private readonly written = new Map<string, LastWritten>();
  private pending = new Map<string, LastWritten>();

  changed(snapshot: ClusterSnapshot, lagSeconds: ReadonlyMap<string, number | null>): GroupSnapshot[] {
    const at = snapshot.poll.startedAt.getTime();
    this.pending = new Map();
    const out: GroupSnapshot[] = [];
    for (const g of snapshot.groups) {
      const key = groupKey(g.groupId);
      const { members, partitions } = serializeGroup(g);
      const signature = JSON.stringify([
        g.groupId,
        g.type,
        g.state,
        g.protocolType,
        g.assignor,
        g.coordinatorId,
        g.groupEpoch,
        g.assignmentEpoch,
        g.lag.total.toString(),
        str(g.lag.max),
        g.lag.unknownPartitions,
        members,
        partitions,
        g.errors,
      ]);
      const next = { at, signature, lagSeconds: lagSeconds.get(g.groupId) ?? null };
      this.pending.set(key, next);
      if (shouldWriteSample(this.written.get(key) ?? null, next, Infinity)) out.push(g);
      else this.pending.set(key, this.written.get(key) ?? next);
    }
    return out;
  }

  /** The write succeeded: what was sent is now what the table holds. */
  commit(): void {
    this.written.clear();
    for (const [k, v] of this.pending) this.written.set(k, v);
  }

  forget(): void {
    this.written.clear();
  }
}

export async function upsertGroups(
  db: PrismaClient,
  clusterId: string,
  snapshot: ClusterSnapshot,
  listingComplete: boolean,
  lagSeconds: ReadonlyMap<string, number | null> = new Map(),
  only?: readonly GroupSnapshot[],
): Promise<void> {
  const seenAt = snapshot.poll.startedAt;
  const groups = only ?? snapshot.groups;
  if (groups.length > 0) {
    const s = groups.map(serializeGroup);
    await db.$executeRaw`
      INSERT INTO consumer_group (cluster_id, group_key, group_id, type, state, protocol_type, assignor,
        coordinator_id, member_count, group_epoch, assignment_epoch, total_lag, max_lag,
        unknown_lag_partitions, lag_seconds, members, partitions, errors, first_seen_at, last_seen_at,
        deleted_at)
      SELECT ${clusterId}::uuid, x.k, x.g, x.t, x.s, x.pt, x.a, x.c, x.mc, x.ge, x.ae, x.tl::bigint,
        x.ml::bigint, x.ul, x.ls, x.m::jsonb, x.p::jsonb, x.e::jsonb, ${seenAt}, ${seenAt}, NULL
      FROM unnest(
        ${s.map((x) => x.key)}::text[], ${groups.map((g) => pgText(g.groupId))}::text[],
        ${groups.map((g) => g.type)}::text[], ${groups.map((g) => g.state)}::text[],
        ${groups.map((g) => g.protocolType)}::text[], ${groups.map((g) => g.assignor)}::text[],
        ${groups.map((g) => g.coordinatorId)}::int[], ${groups.map((g) => g.members.length)}::int[],
        ${groups.map((g) => g.groupEpoch)}::int[], ${groups.map((g) => g.assignmentEpoch)}::int[],
        ${groups.map((g) => g.lag.total.toString())}::text[], ${groups.map((g) => str(g.lag.max))}::text[],
        ${groups.map((g) => g.lag.unknownPartitions)}::int[], ${s.map((x) => x.members)}::text[],
        ${s.map((x) => x.partitions)}::text[], ${groups.map((g) => JSON.stringify(g.errors))}::text[],
        ${groups.map((g) => lagSeconds.get(g.groupId) ?? null)}::float8[]
      ) AS x(k, g, t, s, pt, a, c, mc, ge, ae, tl, ml, ul, m, p, e, ls)
      ON CONFLICT (cluster_id, group_key) DO UPDATE SET
        group_id = EXCLUDED.group_id, type = EXCLUDED.type, state = EXCLUDED.state,
        protocol_type = EXCLUDED.protocol_type, assignor = EXCLUDED.assignor,
        coordinator_id = EXCLUDED.coordinator_id, member_count = EXCLUDED.member_count,
        group_epoch = EXCLUDED.group_epoch, assignment_epoch = EXCLUDED.assignment_epoch,
        total_lag = EXCLUDED.total_lag, max_lag = EXCLUDED.max_lag,
        unknown_lag_partitions = EXCLUDED.unknown_lag_partitions, lag_seconds = EXCLUDED.lag_seconds,
        members = EXCLUDED.members,
        partitions = EXCLUDED.partitions, errors = EXCLUDED.errors,
        last_seen_at = EXCLUDED.last_seen_at, deleted_at = NULL
      WHERE consumer_group.deleted_at IS NOT NULL
        OR (consumer_group.group_id, consumer_group.type, consumer_group.state, consumer_group.protocol_type,
            consumer_group.assignor, consumer_group.coordinator_id, consumer_group.member_count,
            consumer_group.group_epoch, consumer_group.assignment_epoch, consumer_group.total_lag,
            consumer_group.max_lag, consumer_group.unknown_lag_partitions)
          IS DISTINCT FROM
           (EXCLUDED.group_id, EXCLUDED.type, EXCLUDED.state, EXCLUDED.protocol_type, EXCLUDED.assignor,
            EXCLUDED.coordinator_id, EXCLUDED.member_count, EXCLUDED.group_epoch, EXCLUDED.assignment_epoch,
            EXCLUDED.total_lag, EXCLUDED.max_lag, EXCLUDED.unknown_lag_partitions)
        -- Lag in seconds grows with wall time while a consumer is stuck: rewrite the row when it
        -- moved by 1 s and 10 % (the rule of lib/domain/lag-history.ts), not on every cycle.
        OR (consumer_group.lag_seconds IS NULL) <> (EXCLUDED.lag_seconds IS NULL)
        OR abs(consumer_group.lag_seconds - EXCLUDED.lag_seconds)
          >= GREATEST(1, 0.1 * GREATEST(consumer_group.lag_seconds, EXCLUDED.lag_seconds))
        OR consumer_group.members IS DISTINCT FROM EXCLUDED.members
        OR consumer_group.partitions IS DISTINCT FROM EXCLUDED.partitions
        OR consumer_group.errors IS DISTINCT FROM EXCLUDED.errors`;
  }
  // Only a listing that reached every broker can tell that a group is gone.
  if (listingComplete) {
    const present = snapshot.groups.map((g) => groupKey(g.groupId));
    await db.$executeRaw`
      UPDATE consumer_group SET deleted_at = ${seenAt}
      WHERE cluster_id = ${clusterId}::uuid AND deleted_at IS NULL
        AND group_key NOT IN (SELECT unnest(${present}::text[]))`;
  }
}

export async function recordPollCycle(
  db: PrismaClient,
  clusterId: string,
  collectorId: string,
  snapshot: ClusterSnapshot | null,
  facts: { startedAt: Date; durationMs: number; requests: Record<string, number>; errors: string[] },
): Promise<void> {
  const requestCount = Object.values(facts.requests).reduce((a, b) => a + b, 0);
  await db.pollCycle.create({
    data: {
      clusterId,
      collectorId,
      startedAt: facts.startedAt,
      durationMs: Math.round(facts.durationMs),
      ok: snapshot !== null && facts.errors.length === 0,
      requestCount,
      requests: facts.requests,
      brokerCount: snapshot?.brokers.length ?? 0,
      topicCount: snapshot?.topics.length ?? 0,
      groupCount: snapshot?.groups.length ?? 0,
      errors: facts.errors.slice(0, 50),
    },
  });
}
