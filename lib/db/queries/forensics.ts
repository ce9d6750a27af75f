import type { ForensicsEpisode, ForensicsEvent, ForensicsInput } from "../../domain/forensics";
import type { Cause, MovedPartition } from "../../domain/timeline";
import type { PrismaClient } from "../client";
import { groupKey } from "./groups";

export class NotFoundError extends Error {}

const MAX_ROWS = 10_000;

/** Episodes and events of a cluster (optionally some groups) detected within [from, to]. */
export async function loadForensics(
  db: PrismaClient,
  q: { cluster: string; from: Date; to: Date; groups?: string[] },
): Promise<ForensicsInput & { truncated: boolean }> {
  const cluster = await db.cluster.findUnique({ where: { name: q.cluster } });
  if (!cluster) throw new NotFoundError(`unknown cluster "${q.cluster}"`);
  const groupFilter = q.groups && q.groups.length > 0 ? { groupKey: { in: q.groups.map(groupKey) } } : {};
  const [episodes, events] = await Promise.all([
    db.rebalanceEpisode.findMany({
      where: { clusterId: cluster.id, detectedAt: { gte: q.from, lte: q.to }, ...groupFilter },
      orderBy: { detectedAt: "asc" },
      take: MAX_ROWS + 1,
    }),
    db.groupEvent.findMany({
      where: { clusterId: cluster.id, at: { gte: q.from, lte: q.to }, ...groupFilter },
      orderBy: { at: "asc" },
      take: MAX_ROWS + 1,
    }),
  ]);
  return {
    cluster: cluster.name,
    from: q.from.getTime(),
    to: q.to.getTime(),
    truncated: episodes.length > MAX_ROWS || events.length > MAX_ROWS,
    episodes: episodes.slice(0, MAX_ROWS).map((e): ForensicsEpisode => ({
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
    events: events.slice(0, MAX_ROWS).map((e): ForensicsEvent => ({
      groupId: e.groupId,
      at: e.at.getTime(),
      kind: e.kind,
      memberId: e.memberId,
      details: e.details as Record<string, unknown>,
    })),
  };
}
