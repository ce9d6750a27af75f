import type { PrismaClient } from "../db/client";
import { listClusterOverviews } from "../db/queries/clusters";
import { findCluster, loadClusterDetail, type ClusterRef } from "../db/queries/read/clusters";
import { NotFoundError } from "./errors";

export async function listClusters(db: PrismaClient) {
  return { clusters: await listClusterOverviews(db) };
}

/** The cluster addressed by name or id, or a 404. */
export async function resolveCluster(db: PrismaClient, ref: string): Promise<ClusterRef> {
  const c = await findCluster(db, ref);
  if (!c) throw new NotFoundError(`unknown cluster "${ref.slice(0, 200)}"`);
  return c;
}

export async function getCluster(db: PrismaClient, ref: string) {
  const c = await resolveCluster(db, ref);
  const detail = await loadClusterDetail(db, c.id);
  if (!detail) throw new NotFoundError(`unknown cluster "${ref.slice(0, 200)}"`);
  return { cluster: detail };
}
