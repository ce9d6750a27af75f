import type { OffsetPoint } from "../../domain/lag-time";
import type { PrismaClient } from "../client";
import { Prisma } from "../generated/client";

// Lag history: raw change-only samples, their rollups, and the per-partition offset tables that
// lag-in-seconds interpolates in. Every write is one statement per cycle, whatever the number
// of groups or partitions.

/** [topic, partition, committed|null, logEnd|null, lag|null, lagSeconds|null]. */
export type PartitionSampleRow = [string, number, string | null, string | null, string | null, number | null];

export interface LagSampleRow {
  groupKey: string;
  totalLag: bigint;
  maxLag: bigint | null;
  lagSeconds: number | null;
  unknownPartitions: number;
  partitions: PartitionSampleRow[];
}

export async function insertLagSamples(
  db: PrismaClient,
  clusterId: string,
  at: Date,
  rows: readonly LagSampleRow[],
): Promise<void> {
  if (rows.length === 0) return;
  await db.$executeRaw`
    INSERT INTO lag_sample (cluster_id, group_key, at, total_lag, max_lag, lag_seconds, unknown_partitions, partitions)
    SELECT ${clusterId}::uuid, x.k, ${at}, x.t::bigint, x.m::bigint, x.s, x.u, x.p::jsonb
    FROM unnest(
      ${rows.map((r) => r.groupKey)}::text[], ${rows.map((r) => r.totalLag.toString())}::text[],
      ${rows.map((r) => r.maxLag?.toString() ?? null)}::text[], ${rows.map((r) => r.lagSeconds)}::float8[],
      ${rows.map((r) => r.unknownPartitions)}::int[], ${rows.map((r) => JSON.stringify(r.partitions))}::text[]
    ) AS x(k, t, m, s, u, p)`;
}

export type OffsetTables = Map<string, OffsetPoint[]>;

/** Key of a partition in the offset tables and rollups. Kafka topic names cannot hold ':'. */
export const partitionKey = (topic: string, partition: number) => `${topic}:${partition}`;

export async function loadOffsetTables(db: PrismaClient, clusterId: string): Promise<OffsetTables> {
  const rows = await db.partitionOffsetHistory.findMany({ where: { clusterId } });
  return new Map(rows.map((r) => [partitionKey(r.topic, r.partition), r.points as unknown as OffsetPoint[]]));
}

export async function saveOffsetTables(
  db: PrismaClient,
  clusterId: string,
  at: Date,
  tables: readonly { topic: string; partition: number; points: OffsetPoint[] }[],
): Promise<void> {
  if (tables.length === 0) return;
  await db.$executeRaw`
    INSERT INTO partition_offset_history (cluster_id, topic, partition, points, updated_at)
    SELECT ${clusterId}::uuid, x.t, x.p, x.pts::jsonb, ${at}
    FROM unnest(${tables.map((t) => t.topic)}::text[], ${tables.map((t) => t.partition)}::int[],
      ${tables.map((t) => JSON.stringify(t.points))}::text[]) AS x(t, p, pts)
    ON CONFLICT (cluster_id, topic, partition) DO UPDATE SET points = EXCLUDED.points,
      updated_at = EXCLUDED.updated_at`;
}

export async function deleteOffsetTables(
  db: PrismaClient,
  clusterId: string,
  keys: readonly { topic: string; partition: number }[],
): Promise<void> {
  if (keys.length === 0) return;
  await db.$executeRaw`
    DELETE FROM partition_offset_history h
    USING unnest(${keys.map((k) => k.topic)}::text[], ${keys.map((k) => k.partition)}::int[]) AS x(t, p)
    WHERE h.cluster_id = ${clusterId}::uuid AND h.topic = x.t AND h.partition = x.p`;
}

/** A bucket rolled up in two passes (late rows) merges instead of failing. */
const MERGE_INTO_ROLLUP = Prisma.sql`
    ON CONFLICT (cluster_id, group_key, bucket_seconds, at) DO UPDATE SET
      samples = lag_rollup.samples + EXCLUDED.samples,
      total_lag_max = GREATEST(lag_rollup.total_lag_max, EXCLUDED.total_lag_max),
      total_lag_last = EXCLUDED.total_lag_last,
      max_lag = GREATEST(lag_rollup.max_lag, EXCLUDED.max_lag),
      lag_seconds_max = GREATEST(lag_rollup.lag_seconds_max, EXCLUDED.lag_seconds_max),
      partitions = lag_rollup.partitions || EXCLUDED.partitions`;

/**
 * Moves raw samples older than `before` into buckets of `bucketSeconds` (in one statement: the
 * rows are deleted and their rollups written atomically). `before` is aligned down to a bucket
 * boundary so each bucket is rolled up once, from all of its samples.
 */
export async function rollUpRawSamples(
  db: PrismaClient,
  clusterId: string,
  before: Date,
  bucketSeconds: number,
): Promise<number> {
  const cutoff = alignDown(before, bucketSeconds);
  return db.$executeRaw`
    WITH moved AS (
      DELETE FROM lag_sample WHERE cluster_id = ${clusterId}::uuid AND at < ${cutoff}
      RETURNING group_key, at, total_lag, max_lag, lag_seconds, partitions
    ), b AS (
      SELECT group_key, to_timestamp(floor(extract(epoch FROM at) / ${bucketSeconds}) * ${bucketSeconds}) AS bucket,
        at, total_lag, max_lag, lag_seconds, partitions
      FROM moved
    ), parts AS (
      SELECT group_key, bucket, jsonb_object_agg(k, jsonb_build_array(lmax, smax)) AS partitions
      FROM (
        SELECT group_key, bucket, (e->>0) || ':' || (e->>1) AS k,
          max((e->>4)::numeric)::text AS lmax, max((e->>5)::float8) AS smax
        FROM b, jsonb_array_elements(b.partitions) AS e
        GROUP BY 1, 2, 3
      ) p
      GROUP BY 1, 2
    ), agg AS (
      SELECT group_key, bucket, count(*)::int AS samples, max(total_lag) AS total_lag_max,
        (array_agg(total_lag ORDER BY at DESC))[1] AS total_lag_last, max(max_lag) AS max_lag,
        max(lag_seconds) AS lag_seconds_max
      FROM b GROUP BY 1, 2
    )
    INSERT INTO lag_rollup (cluster_id, group_key, bucket_seconds, at, samples, total_lag_max,
      total_lag_last, max_lag, lag_seconds_max, partitions)
    SELECT ${clusterId}::uuid, agg.group_key, ${bucketSeconds}, agg.bucket, agg.samples, agg.total_lag_max,
      agg.total_lag_last, agg.max_lag, agg.lag_seconds_max, coalesce(parts.partitions, '{}'::jsonb)
    FROM agg LEFT JOIN parts USING (group_key, bucket)
    ${MERGE_INTO_ROLLUP}`;
}

/** Moves rollups of `fromSeconds` older than `before` into coarser buckets of `toSeconds`. */
export async function rollUpRollups(
  db: PrismaClient,
  clusterId: string,
  before: Date,
  fromSeconds: number,
  toSeconds: number,
): Promise<number> {
  const cutoff = alignDown(before, toSeconds);
  return db.$executeRaw`
    WITH moved AS (
      DELETE FROM lag_rollup
      WHERE cluster_id = ${clusterId}::uuid AND bucket_seconds = ${fromSeconds} AND at < ${cutoff}
      RETURNING group_key, at, samples, total_lag_max, total_lag_last, max_lag, lag_seconds_max, partitions
    ), b AS (
      SELECT *, to_timestamp(floor(extract(epoch FROM at) / ${toSeconds}) * ${toSeconds}) AS bucket FROM moved
    ), parts AS (
      SELECT group_key, bucket, jsonb_object_agg(k, jsonb_build_array(lmax, smax)) AS partitions
      FROM (
        SELECT group_key, bucket, e.key AS k, max((e.value->>0)::numeric)::text AS lmax,
          max((e.value->>1)::float8) AS smax
        FROM b, jsonb_each(b.partitions) AS e
        GROUP BY 1, 2, 3
      ) p
      GROUP BY 1, 2
    ), agg AS (
      SELECT group_key, bucket, sum(samples)::int AS samples, max(total_lag_max) AS total_lag_max,
        (array_agg(total_lag_last ORDER BY at DESC))[1] AS total_lag_last, max(max_lag) AS max_lag,
        max(lag_seconds_max) AS lag_seconds_max
      FROM b GROUP BY 1, 2
    )
    INSERT INTO lag_rollup (cluster_id, group_key, bucket_seconds, at, samples, total_lag_max,
      total_lag_last, max_lag, lag_seconds_max, partitions)
    SELECT ${clusterId}::uuid, agg.group_key, ${toSeconds}, agg.bucket, agg.samples, agg.total_lag_max,
      agg.total_lag_last, agg.max_lag, agg.lag_seconds_max, coalesce(parts.partitions, '{}'::jsonb)
    FROM agg LEFT JOIN parts USING (group_key, bucket)
    ${MERGE_INTO_ROLLUP}`;
}

function alignDown(at: Date, bucketSeconds: number): Date {
  const ms = bucketSeconds * 1000;
  return new Date(Math.floor(at.getTime() / ms) * ms);
}
