import { z } from "zod";

import type { PrismaClient } from "../db/client";
import { loadLagHistory } from "../db/queries/read/lag";
import { resolveGroup } from "./groups";
import {
  buildLagSeries,
  DEFAULT_MAX_GAP_MS,
  defaultStepMs,
  gridStart,
  MAX_POINTS,
  pointCount,
} from "./lag-series";
import { windowFields, withWindow, zBool, zInt } from "./params";

const MAX_ROWS = 100_000;

export const ZLagQuery = z
  .strictObject({
    ...windowFields,
    /** Seconds. */
    step: zInt("step", 1, 31 * 86_400).optional(),
    partitions: zBool("partitions").default(false),
  })
  .transform(withWindow())
  .transform((q, ctx) => {
    const span = q.to.getTime() - q.from.getTime();
    const stepMs = q.step === undefined ? defaultStepMs(span) : q.step * 1000;
    const points = pointCount(q.from.getTime(), q.to.getTime(), stepMs);
    if (points > MAX_POINTS) {
      ctx.addIssue({
        code: "custom",
        path: ["step"],
        message: `step ${stepMs / 1000} s gives ${points.toLocaleString("en-US")} points; ${MAX_POINTS.toLocaleString("en-US")} at most (use a larger step or a shorter window)`,
      });
      return z.NEVER;
    }
    return { from: q.from, to: q.to, stepMs, partitions: q.partitions };
  });
export type LagQuery = z.output<typeof ZLagQuery>;

/** Lag history of a group on a step grid (lib/api/lag-series.ts says how it is built). */
export async function getLag(
  db: PrismaClient,
  clusterRef: string,
  groupId: string,
  q: LagQuery,
  now = Date.now(),
) {
  const g = await resolveGroup(db, clusterRef, groupId);
  const start = gridStart(q.from.getTime(), q.stepMs);
  const rows = await loadLagHistory(db, {
    clusterId: g.cluster.id,
    groupKey: g.groupKey,
    from: new Date(start),
    to: q.to,
    lookbackMs: DEFAULT_MAX_GAP_MS,
    partitions: q.partitions,
    maxRows: MAX_ROWS,
  });
  const series = buildLagSeries(rows.raw, rows.rollups, {
    from: q.from.getTime(),
    to: q.to.getTime(),
    stepMs: q.stepMs,
    now,
    partitions: q.partitions,
  });
  return {
    cluster: { id: g.cluster.id, name: g.cluster.name },
    groupId: g.groupId,
    from: q.from,
    to: q.to,
    stepSeconds: q.stepMs / 1000,
    truncated: rows.truncated,
    points: series.points.map((p) => ({ ...p, at: new Date(p.at) })),
    ...(series.partitions
      ? { partitions: series.partitions, partitionsTruncated: series.partitionsTruncated ?? false }
      : {}),
  };
}
