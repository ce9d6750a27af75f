import type { GroupSort } from "../../../api/group-lists";
import type { MemberSnapshot } from "../../../domain/snapshot";
import type { PrismaClient } from "../../client";
import { Prisma } from "../../generated/client";

// Read side of consumer groups: the paged list (one statement, whatever the number of groups)
// and one group's detail.

export { GROUP_SORTS, type GroupSort } from "../../../api/group-lists";

// Whitelisted SQL per sort key: never built from input. Unknown lag-in-seconds sorts lowest.
const SORT_SQL: Record<Exclude<GroupSort, "name">, { expr: string; cast: string }> = {
  lag: { expr: "p.total_lag", cast: "numeric" },
  lagSeconds: { expr: "COALESCE(p.lag_seconds, -1)", cast: "float8" },
  rebalances1h: { expr: "p.rebalances_1h", cast: "bigint" },
  rebalances24h: { expr: "p.rebalances_24h", cast: "bigint" },
  members: { expr: "p.member_count", cast: "int" },
  state: { expr: "p.state", cast: "text" },
};

export interface GroupListQuery {
  clusterId: string;
  now: Date;
  state?: string | undefined;
  type?: string | undefined;
  /** Case-insensitive substring of the group id (matched literally). */
  q?: string | undefined;
  includeDeleted: boolean;
  sort: GroupSort;
  order: "asc" | "desc";
  limit: number;
  /** Keyset: the sort value (as text; null for the name sort) and group key of the last row. */
  after?: { value: string | null; key: string } | undefined;
}

export interface GroupListRow {
  groupKey: string;
  groupId: string;
  type: string;
  state: string;
  memberCount: number;
  totalLag: bigint;
  maxLag: bigint | null;
  unknownLagPartitions: number;
  lagSeconds: number | null;
  consumerStatus: string | null;
  rebalances1h: number;
  rebalances24h: number;
  lastSeenAt: Date;
  deletedAt: Date | null;
  /** The row's sort value as text, for the next page's cursor. */
  sortValue: string | null;
}

interface RawRow {
  total: bigint;
  group_key: string | null;
  group_id: string;
  type: string;
  state: string;
  member_count: number;
  total_lag: bigint;
  max_lag: bigint | null;
  unknown_lag_partitions: number;
  lag_seconds: number | null;
  consumer_status: string | null;
  rebalances_1h: bigint;
  rebalances_24h: bigint;
  last_seen_at: Date;
  deleted_at: Date | null;
  sort_value: string | null;
}

/** Escapes LIKE wildcards so the text matches literally (ESCAPE '\'). */
export const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function listGroups(
  db: PrismaClient,
  q: GroupListQuery,
): Promise<{ total: number; rows: GroupListRow[] }> {
  const h1 = new Date(q.now.getTime() - 3_600_000);
  const h24 = new Date(q.now.getTime() - 24 * 3_600_000);
  const filters: Prisma.Sql[] = [Prisma.sql`cg.cluster_id = ${q.clusterId}::uuid`];
  if (!q.includeDeleted) filters.push(Prisma.sql`cg.deleted_at IS NULL`);
  if (q.state !== undefined) filters.push(Prisma.sql`cg.state = ${q.state}`);
  if (q.type !== undefined) filters.push(Prisma.sql`cg.type = ${q.type}`);
  if (q.q !== undefined) filters.push(Prisma.sql`cg.group_id ILIKE ${`%${likeEscape(q.q)}%`} ESCAPE '\\'`);

  const dir = Prisma.raw(q.order === "asc" ? "ASC" : "DESC");
  const cmp = Prisma.raw(q.order === "asc" ? ">" : "<");
  const sort = q.sort === "name" ? null : SORT_SQL[q.sort];
  const sortExpr = sort ? Prisma.raw(sort.expr) : Prisma.raw("NULL::text");
  let keyset = Prisma.empty;
  if (q.after) {
    keyset =
      sort && q.after.value !== null
        ? Prisma.sql`WHERE (${Prisma.raw(sort.expr)}, p.group_key) ${cmp} (${q.after.value}::${Prisma.raw(sort.cast)}, ${q.after.key})`
        : Prisma.sql`WHERE p.group_key ${cmp} ${q.after.key}`;
  }
  const orderBy = sort
    ? Prisma.sql`ORDER BY ${Prisma.raw(sort.expr)} ${dir}, p.group_key ${dir}`
    : Prisma.sql`ORDER BY p.group_key ${dir}`;

  const rows = await db.$queryRaw<RawRow[]>`
    WITH reb AS (
      SELECT group_key,
        count(*) FILTER (WHERE detected_at > ${h1}) AS h1,
        count(*) AS h24
      FROM rebalance_episode
      WHERE cluster_id = ${q.clusterId}::uuid AND rebalance
        AND detected_at > ${h24} AND detected_at <= ${q.now}
      GROUP BY group_key
    ), g AS (
      SELECT cg.group_key, cg.group_id, cg.type, cg.state, cg.member_count, cg.total_lag, cg.max_lag,
        cg.unknown_lag_partitions, cg.lag_seconds, cg.deleted_at,
        -- Rows are written change-only: a live group was last seen at the last good poll.
        CASE WHEN cg.deleted_at IS NULL THEN GREATEST(cg.last_seen_at, cs.last_success_at)
          ELSE cg.last_seen_at END AS last_seen_at,
        csw.status AS consumer_status,
        COALESCE(reb.h1, 0) AS rebalances_1h, COALESCE(reb.h24, 0) AS rebalances_24h
      FROM consumer_group cg
      LEFT JOIN reb ON reb.group_key = cg.group_key
      LEFT JOIN consumer_status_window csw
        ON csw.cluster_id = cg.cluster_id AND csw.group_key = cg.group_key
      LEFT JOIN cluster_status cs ON cs.cluster_id = cg.cluster_id
      WHERE ${Prisma.join(filters, " AND ")}
    )
    SELECT t.total, page.*
    FROM (SELECT count(*) AS total FROM g) t
    LEFT JOIN LATERAL (
      SELECT p.*, (${sortExpr})::text AS sort_value FROM g p
      ${keyset}
      ${orderBy}
      LIMIT ${q.limit + 1}
    ) page ON true`;

  const total = Number(rows[0]?.total ?? 0);
  return {
    total,
    rows: rows
      .filter((r): r is RawRow & { group_key: string } => r.group_key !== null)
      .map((r) => ({
        groupKey: r.group_key,
        groupId: r.group_id,
        type: r.type,
        state: r.state,
        memberCount: r.member_count,
        totalLag: r.total_lag,
        maxLag: r.max_lag,
        unknownLagPartitions: r.unknown_lag_partitions,
        lagSeconds: r.lag_seconds,
        consumerStatus: r.consumer_status,
        rebalances1h: Number(r.rebalances_1h),
        rebalances24h: Number(r.rebalances_24h),
        lastSeenAt: r.last_seen_at,
        deletedAt: r.deleted_at,
        sortValue: r.sort_value,
      })),
  };
}

export interface StoredPartition {
  topic: string;
  partition: number;
  committedOffset: string | null;
  logEndOffset: string | null;
  lag: string | null;
  lagSeconds?: number | null;
}

export interface GroupDetailRow {
  groupKey: string;
  groupId: string;
  type: string;
  state: string;
  protocolType: string;
  assignor: string | null;
  coordinatorId: number | null;
  groupEpoch: number | null;
  assignmentEpoch: number | null;
  memberCount: number;
  totalLag: bigint;
  maxLag: bigint | null;
  unknownLagPartitions: number;
  lagSeconds: number | null;
  members: MemberSnapshot[];
  partitions: StoredPartition[];
  errors: unknown;
  firstSeenAt: Date;
  lastSeenAt: Date;
  deletedAt: Date | null;
}

export async function findGroup(
  db: PrismaClient,
  clusterId: string,
  key: string,
): Promise<GroupDetailRow | null> {
  const [g, status] = await Promise.all([
    db.consumerGroup.findUnique({ where: { clusterId_groupKey: { clusterId, groupKey: key } } }),
    db.clusterStatus.findUnique({ where: { clusterId }, select: { lastSuccessAt: true } }),
  ]);
  if (!g) return null;
  // Rows are written change-only: a live group was last seen at the cluster's last good poll.
  const polled = status?.lastSuccessAt ?? null;
  const lastSeenAt = g.deletedAt === null && polled && polled > g.lastSeenAt ? polled : g.lastSeenAt;
  return {
    groupKey: g.groupKey,
    groupId: g.groupId,
    type: g.type,
    state: g.state,
    protocolType: g.protocolType,
    assignor: g.assignor,
    coordinatorId: g.coordinatorId,
    groupEpoch: g.groupEpoch,
    assignmentEpoch: g.assignmentEpoch,
    memberCount: g.memberCount,
    totalLag: g.totalLag,
    maxLag: g.maxLag,
    unknownLagPartitions: g.unknownLagPartitions,
    lagSeconds: g.lagSeconds,
    members: g.members as unknown as MemberSnapshot[],
    partitions: g.partitions as unknown as StoredPartition[],
    errors: g.errors,
    firstSeenAt: g.firstSeenAt,
    lastSeenAt,
    deletedAt: g.deletedAt,
  };
}

/** Whether a group row exists (deleted ones included): the key for its history. */
export async function groupExists(
  db: PrismaClient,
  clusterId: string,
  key: string,
): Promise<{ groupId: string } | null> {
  return db.consumerGroup.findUnique({
    where: { clusterId_groupKey: { clusterId, groupKey: key } },
    select: { groupId: true },
  });
}

export async function loadConsumerStatus(
  db: PrismaClient,
  clusterId: string,
  key: string,
): Promise<{ status: string; updatedAt: Date } | null> {
  return db.consumerStatusWindow.findUnique({
    where: { clusterId_groupKey: { clusterId, groupKey: key } },
    select: { status: true, updatedAt: true },
  });
}
