import type { LagRollupBucket, PartitionLagValue, RawLagSample } from "../../../api/lag-series";
import type { PrismaClient } from "../../client";

// Read side of lag history: raw change-only samples and rollup buckets of one group, as the
// pure series builder (lib/api/lag-series.ts) takes them, and peak lag per group for forensics.

const LONGEST_BUCKET_MS = 86_400_000;

const big = (v: unknown): bigint | null => {
  if (typeof v === "string" && /^-?\d+$/.test(v)) return BigInt(v);
  if (typeof v === "number" && Number.isInteger(v)) return BigInt(v);
  if (typeof v === "bigint") return v;
  return null;
};
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** lag_sample.partitions: [[topic, partition, committed, logEnd, lag, lagSeconds]]. */
export function parseSamplePartitions(json: unknown): Map<string, PartitionLagValue> {
  const out = new Map<string, PartitionLagValue>();
  if (!Array.isArray(json)) return out;
  for (const p of json as unknown[]) {
    if (!Array.isArray(p) || typeof p[0] !== "string") continue;
    const partition = Number(p[1]);
    if (!Number.isInteger(partition)) continue;
    out.set(`${p[0]}\u0000${partition}`, { lag: big(p[4]), lagSeconds: num(p[5]) });
  }
  return out;
}

/** lag_rollup.partitions: {"topic<sep>partition": [lagMax, lagSecondsMax]}, the separator
 *  U+0000 or ":" (topic names hold neither); keys come out as "topic\u0000partition". */
export function parseRollupPartitions(json: unknown): Map<string, PartitionLagValue> {
  const out = new Map<string, PartitionLagValue>();
  if (json === null || typeof json !== "object" || Array.isArray(json)) return out;
  for (const [key, v] of Object.entries(json as Record<string, unknown>)) {
    if (!Array.isArray(v)) continue;
    const i = key.includes("\u0000") ? key.lastIndexOf("\u0000") : key.lastIndexOf(":");
    const partition = Number(key.slice(i + 1));
    if (i < 0 || !Number.isInteger(partition)) continue;
    out.set(`${key.slice(0, i)}\u0000${partition}`, { lag: big(v[0]), lagSeconds: num(v[1]) });
  }
  return out;
}

export interface LagHistoryRows {
  raw: RawLagSample[];
  rollups: LagRollupBucket[];
  truncated: boolean;
}

/** Rows of [from - lookbackMs, to): the look-back finds the value in effect at `from`. */
export async function loadLagHistory(
  db: PrismaClient,
  q: {
    clusterId: string;
    groupKey: string;
    from: Date;
    to: Date;
    lookbackMs: number;
    partitions: boolean;
    maxRows: number;
  },
): Promise<LagHistoryRows> {
  const since = new Date(q.from.getTime() - q.lookbackMs);
  const [raw, rollups] = await Promise.all([
    db.lagSample.findMany({
      where: { clusterId: q.clusterId, groupKey: q.groupKey, at: { gte: since, lt: q.to } },
      orderBy: { at: "asc" },
      take: q.maxRows + 1,
      select: {
        at: true,
        totalLag: true,
        maxLag: true,
        lagSeconds: true,
        partitions: q.partitions,
      },
    }),
    db.lagRollup.findMany({
      where: {
        clusterId: q.clusterId,
        groupKey: q.groupKey,
        at: { gte: new Date(since.getTime() - LONGEST_BUCKET_MS), lt: q.to },
      },
      orderBy: { at: "asc" },
      take: q.maxRows + 1,
      select: {
        at: true,
        bucketSeconds: true,
        samples: true,
        totalLagMax: true,
        totalLagLast: true,
        maxLag: true,
        lagSecondsMax: true,
        partitions: q.partitions,
      },
    }),
  ]);
  return {
    truncated: raw.length > q.maxRows || rollups.length > q.maxRows,
    raw: raw.slice(0, q.maxRows).map((r) => ({
      at: r.at.getTime(),
      totalLag: r.totalLag,
      maxLag: r.maxLag,
      lagSeconds: r.lagSeconds,
      ...(q.partitions ? { partitions: parseSamplePartitions(r.partitions) } : {}),
    })),
    rollups: rollups
      .slice(0, q.maxRows)
      .filter((r) => r.at.getTime() + r.bucketSeconds * 1000 > since.getTime())
      .map((r) => ({
        at: r.at.getTime(),
        bucketMs: r.bucketSeconds * 1000,
        samples: r.samples,
        totalLagMax: r.totalLagMax,
        totalLagLast: r.totalLagLast,
        maxLag: r.maxLag,
        lagSecondsMax: r.lagSecondsMax,
        ...(q.partitions ? { partitions: parseRollupPartitions(r.partitions) } : {}),
      })),
  };
}

/** Peak total lag per group key over samples and buckets overlapping [from, to]. */
export async function loadPeakLag(
  db: PrismaClient,
  q: { clusterId: string; groupKeys: string[]; from: Date; to: Date },
): Promise<Map<string, bigint>> {
  if (q.groupKeys.length === 0) return new Map();
  const rows = await db.$queryRaw<{ group_key: string; peak: bigint }[]>`
    SELECT group_key, max(peak) AS peak FROM (
      SELECT group_key, max(total_lag) AS peak FROM lag_sample
      WHERE cluster_id = ${q.clusterId}::uuid AND group_key = ANY(${q.groupKeys}::text[])
        AND at >= ${q.from} AND at <= ${q.to}
      GROUP BY group_key
      UNION ALL
      SELECT group_key, max(total_lag_max) AS peak FROM lag_rollup
      WHERE cluster_id = ${q.clusterId}::uuid AND group_key = ANY(${q.groupKeys}::text[])
        AND at > ${new Date(q.from.getTime() - LONGEST_BUCKET_MS)} AND at <= ${q.to}
        AND at + bucket_seconds * interval '1 second' > ${q.from}
      GROUP BY group_key
    ) x GROUP BY group_key`;
  return new Map(rows.map((r) => [r.group_key, r.peak]));
}
