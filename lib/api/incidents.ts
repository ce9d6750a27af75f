import { z } from "zod";

import type { PrismaClient } from "../db/client";
import { listIncidents as loadIncidents } from "../db/queries/read/incidents";
import { resolveCluster } from "./clusters";
import { resolveWindow, ZClusterRef, zEnum, zInt, ZTime } from "./params";

export const MAX_INCIDENTS = 500;

export const ZIncidentQuery = z
  .strictObject({
    cluster: ZClusterRef.optional(),
    state: zEnum("state", ["open", "resolved"]).optional(),
    from: ZTime.optional(),
    to: ZTime.optional(),
    limit: zInt("limit", 1, MAX_INCIDENTS).default(100),
  })
  .transform((q, ctx) => {
    // No bounds: every incident, newest first. Bounds: incidents opened within them.
    if (q.from === undefined && q.to === undefined) return { ...q, from: undefined, to: undefined };
    const w = resolveWindow(q, Date.now(), ctx);
    return w === null ? z.NEVER : { ...q, ...w };
  });
export type IncidentQuery = z.output<typeof ZIncidentQuery>;

export async function listIncidents(db: PrismaClient, q: IncidentQuery) {
  const cluster = q.cluster === undefined ? undefined : await resolveCluster(db, q.cluster);
  const { rows, truncated } = await loadIncidents(db, {
    clusterId: cluster?.id,
    state: q.state,
    from: q.from,
    to: q.to,
    limit: q.limit,
  });
  return { incidents: rows, truncated };
}
