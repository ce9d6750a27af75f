import type { PrismaClient } from "../../client";
import { Prisma } from "../../generated/client";

// Aggregates for the overview: rebalance episodes per time bucket.

export interface BucketCount {
  /** Epoch ms of the bucket's start (aligned to the epoch). */
  at: number;
  count: number;
}

/** Episodes with a rebalance detected in [from, to), counted per epoch-aligned bucket. */
export async function countRebalances(
  db: PrismaClient,
  q: { clusterId?: string | undefined; from: Date; to: Date; bucketSeconds: number },
): Promise<BucketCount[]> {
  const cluster =
    q.clusterId === undefined ? Prisma.empty : Prisma.sql`AND cluster_id = ${q.clusterId}::uuid`;
  const rows = await db.$queryRaw<{ b: bigint; n: bigint }[]>`
    SELECT floor(extract(epoch FROM detected_at) / ${q.bucketSeconds})::bigint AS b, count(*) AS n
    FROM rebalance_episode
    WHERE rebalance AND detected_at >= ${q.from} AND detected_at < ${q.to} ${cluster}
    GROUP BY b
    ORDER BY b`;
  return rows.map((r) => ({ at: Number(r.b) * q.bucketSeconds * 1000, count: Number(r.n) }));
}
