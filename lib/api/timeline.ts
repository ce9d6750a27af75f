import { z } from "zod";

import type { PrismaClient } from "../db/client";
import { loadTimeline } from "../db/queries/read/timeline";
import { resolveGroup } from "./groups";
import { windowFields, withWindow } from "./params";

export const MAX_TIMELINE_ROWS = 5_000;

export const ZTimelineQuery = z.strictObject(windowFields).transform(withWindow());
export type TimelineQuery = z.output<typeof ZTimelineQuery>;

/** A group's timeline in [from, to]: intervals and sessions overlapping it, events and
 *  episodes inside it; each kind capped at MAX_TIMELINE_ROWS (then `truncated`). */
export async function getTimeline(db: PrismaClient, clusterRef: string, groupId: string, q: TimelineQuery) {
  const g = await resolveGroup(db, clusterRef, groupId);
  const rows = await loadTimeline(db, {
    clusterId: g.cluster.id,
    groupKey: g.groupKey,
    from: q.from,
    to: q.to,
    maxRows: MAX_TIMELINE_ROWS,
  });
  return {
    cluster: { id: g.cluster.id, name: g.cluster.name },
    groupId: g.groupId,
    from: q.from,
    to: q.to,
    ...rows,
  };
}
