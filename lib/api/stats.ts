import { z } from "zod";

import type { PrismaClient } from "../db/client";
import { countRebalances, type BucketCount } from "../db/queries/read/stats";
import { resolveCluster } from "./clusters";
import { windowFields, withWindow, ZClusterRef, zInt } from "./params";

export const MAX_BUCKETS = 5_000;

export const ZRebalanceStatsQuery = z
  .strictObject({
    cluster: ZClusterRef.optional(),
    ...windowFields,
    /** Seconds. */
    bucket: zInt("bucket", 60, 86_400).default(3600),
  })
  .transform(withWindow({ defaultMs: 24 * 3_600_000 }))
  .transform((q, ctx) => {
    const n = bucketCount(q.from.getTime(), q.to.getTime(), q.bucket * 1000);
    if (n > MAX_BUCKETS) {
      ctx.addIssue({
        code: "custom",
        path: ["bucket"],
        message: `bucket ${q.bucket} s gives ${n.toLocaleString("en-US")} buckets; ${MAX_BUCKETS.toLocaleString("en-US")} at most`,
      });
      return z.NEVER;
    }
    return q;
  });
export type RebalanceStatsQuery = z.output<typeof ZRebalanceStatsQuery>;

const bucketStart = (t: number, size: number) => Math.floor(t / size) * size;

export function bucketCount(from: number, to: number, sizeMs: number): number {
  return Math.floor((to - 1 - bucketStart(from, sizeMs)) / sizeMs) + 1;
}

/** Every bucket overlapping [from, to), zero where nothing was counted. */
export function fillBuckets(counts: BucketCount[], from: number, to: number, sizeMs: number): BucketCount[] {
  const byStart = new Map(counts.map((c) => [c.at, c.count]));
  const out: BucketCount[] = [];
  for (let at = bucketStart(from, sizeMs); at < to; at += sizeMs)
    out.push({ at, count: byStart.get(at) ?? 0 });
  return out;
}

/** Rebalances per bucket in the window, for one cluster or all of them. */
export async function getRebalanceStats(db: PrismaClient, q: RebalanceStatsQuery) {
  const cluster = q.cluster === undefined ? null : await resolveCluster(db, q.cluster);
  const sizeMs = q.bucket * 1000;
  const counts = await countRebalances(db, {
    clusterId: cluster?.id,
    from: q.from,
    to: q.to,
    bucketSeconds: q.bucket,
  });
  const buckets = fillBuckets(counts, q.from.getTime(), q.to.getTime(), sizeMs);
  return {
    cluster: cluster && { id: cluster.id, name: cluster.name },
    from: q.from,
    to: q.to,
    bucketSeconds: q.bucket,
    total: counts.reduce((n, c) => n + c.count, 0),
    buckets: buckets.map((b) => ({ at: new Date(b.at), count: b.count })),
  };
}
