import type { ForensicsEpisode, ForensicsEvent, ForensicsInput } from "../../../domain/forensics";
import type { Cause, MovedPartition } from "../../../domain/timeline";
import type { PrismaClient } from "../../client";
import { groupKey } from "../groups";
import { loadPeakLag } from "./lag";

export const MAX_FORENSICS_ROWS = 10_000;

/** Episodes and events of a cluster (optionally some groups) detected within [from, to], with
 *  the peak lag in the window of each group they name (and of each group asked for). */
export async function loadForensics(
  db: PrismaClient,
  q: { clusterId: string; clusterName: string; from: Date; to: Date; groups?: string[] },
): Promise<ForensicsInput & { truncated: boolean }> {
  const groupFilter = q.groups && q.groups.length > 0 ? { groupKey: { in: q.groups.map(groupKey) } } : {};
  const [episodes, events] = await Promise.all([
    db.rebalanceEpisode.findMany({
      where: { clusterId: q.clusterId, detectedAt: { gte: q.from, lte: q.to }, ...groupFilter },
      orderBy: [{ detectedAt: "asc" }, { id: "asc" }],
      take: MAX_FORENSICS_ROWS + 1,
    }),
    db.groupEvent.findMany({
      where: { clusterId: q.clusterId, at: { gte: q.from, lte: q.to }, ...groupFilter },
      orderBy: [{ at: "asc" }, { id: "asc" }],
      take: MAX_FORENSICS_ROWS + 1,
    }),
  ]);
  const names = new Map<string, string>();
  for (const g of q.groups ?? []) names.set(groupKey(g), g);
  for (const e of episodes) names.set(e.groupKey, e.groupId);
  const peaks = await loadPeakLag(db, {
    clusterId: q.clusterId,
    groupKeys: [...names.keys()],
    from: q.from,
    to: q.to,
  });
  const peakLag: Record<string, string> = {};
  for (const [key, peak] of peaks) {
    const name = names.get(key);
    if (name !== undefined) peakLag[name] = peak.toString();
  }
  return {
    cluster: q.clusterName,
    peakLag,
    from: q.from.getTime(),
    to: q.to.getTime(),
    truncated: episodes.length > MAX_FORENSICS_ROWS || events.length > MAX_FORENSICS_ROWS,
    episodes: episodes.slice(0, MAX_FORENSICS_ROWS).map((e): ForensicsEpisode => ({
      groupId: e.groupId,
      startedAfter: e.startedAfter.getTime(),
      detectedAt: e.detectedAt.getTime(),
      endedBy: e.endedBy?.getTime() ?? null,
      observedInProgress: e.observedInProgress,
      rebalance: e.rebalance,
      causes: e.causes as unknown as Cause[],
      membersBefore: e.membersBefore as unknown as string[],
      membersAfter: e.membersAfter as unknown as string[],
      partitionsMoved: e.partitionsMoved as unknown as MovedPartition[],
    })),
    events: events.slice(0, MAX_FORENSICS_ROWS).map((e): ForensicsEvent => ({
      groupId: e.groupId,
      at: e.at.getTime(),
      kind: e.kind,
      memberId: e.memberId,
      details: e.details as Record<string, unknown>,
    })),
  };
}
