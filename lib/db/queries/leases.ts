import type { PrismaClient } from "../client";

// One owner per cluster among several collectors. A lease is taken when free or expired and
// renewed by its owner; all times are the database's clock, so collectors on hosts with skewed
// clocks still agree. The upsert is one statement: two collectors racing cannot both win.

export async function acquireLease(
  db: PrismaClient,
  clusterId: string,
  ownerId: string,
  ttlMs: number,
): Promise<boolean> {
  const rows = await db.$queryRaw<{ owner_id: string }[]>`
    INSERT INTO cluster_lease (cluster_id, owner_id, acquired_at, expires_at)
    VALUES (${clusterId}::uuid, ${ownerId}, now(), now() + ${ttlMs}::int * interval '1 millisecond')
    ON CONFLICT (cluster_id) DO UPDATE SET
      owner_id = EXCLUDED.owner_id,
      acquired_at = CASE WHEN cluster_lease.owner_id = EXCLUDED.owner_id
                         THEN cluster_lease.acquired_at ELSE now() END,
      expires_at = EXCLUDED.expires_at
    WHERE cluster_lease.owner_id = EXCLUDED.owner_id OR cluster_lease.expires_at < now()
    RETURNING owner_id`;
  return rows.length === 1;
}

export async function releaseLease(db: PrismaClient, clusterId: string, ownerId: string): Promise<void> {
  await db.$executeRaw`DELETE FROM cluster_lease WHERE cluster_id = ${clusterId}::uuid AND owner_id = ${ownerId}`;
}

export async function leaseOwners(db: PrismaClient, clusterIds: string[]): Promise<Map<string, string>> {
  const rows = await db.clusterLease.findMany({
    where: { clusterId: { in: clusterIds }, expiresAt: { gt: new Date() } },
  });
  return new Map(rows.map((r) => [r.clusterId, r.ownerId]));
}
