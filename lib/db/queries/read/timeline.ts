import type { Cause, MovedPartition } from "../../../domain/timeline";
import type { TopicPartitions } from "../../../domain/types";
import type { PrismaClient } from "../../client";

// One group's timeline in a window: state intervals and member sessions overlapping it, events
// and rebalance episodes inside it. Each kind is capped; `truncated` says a cap was hit.

export interface TimelineRows {
  intervals: { state: string; from: Date; fromAfter: Date | null; to: Date | null }[];
  events: { at: Date; kind: string; memberId: string | null; details: unknown }[];
  episodes: {
    startedAfter: Date;
    detectedAt: Date;
    endedBy: Date | null;
    observedInProgress: boolean;
    rebalance: boolean;
    causeKinds: string[];
    causes: Cause[];
    membersBefore: string[];
    membersAfter: string[];
    partitionsMoved: MovedPartition[];
    epochBefore: number | null;
    epochAfter: number | null;
  }[];
  sessions: {
    memberId: string;
    groupInstanceId: string | null;
    clientId: string;
    clientHost: string;
    joinedAt: Date;
    joinedObserved: boolean;
    leftAt: Date | null;
    leftHow: string | null;
    assignment: TopicPartitions[];
  }[];
  truncated: boolean;
}

export async function loadTimeline(
  db: PrismaClient,
  q: { clusterId: string; groupKey: string; from: Date; to: Date; maxRows: number },
): Promise<TimelineRows> {
  const { clusterId, groupKey, from, to, maxRows } = q;
  const take = maxRows + 1;
  const [before, inside, events, episodes, sessions] = await Promise.all([
    // A group's intervals follow one another: the few starting last before the window are the
    // only ones that can reach into it, found on the (cluster, group, from) index.
    db.groupStateInterval.findMany({
      where: { clusterId, groupKey, from: { lt: from } },
      orderBy: { from: "desc" },
      take: 5,
    }),
    db.groupStateInterval.findMany({
      where: { clusterId, groupKey, from: { gte: from, lt: to } },
      orderBy: { from: "asc" },
      take,
    }),
    db.groupEvent.findMany({
      where: { clusterId, groupKey, at: { gte: from, lte: to } },
      orderBy: [{ at: "asc" }, { id: "asc" }],
      take,
    }),
    db.rebalanceEpisode.findMany({
      where: { clusterId, groupKey, detectedAt: { gte: from, lte: to } },
      orderBy: [{ detectedAt: "asc" }, { id: "asc" }],
      take,
    }),
    db.memberSession.findMany({
      where: {
        clusterId,
        groupKey,
        joinedAt: { lt: to },
        OR: [{ leftAt: null }, { leftAt: { gt: from } }],
      },
      orderBy: [{ joinedAt: "asc" }, { id: "asc" }],
      take,
    }),
  ]);
  const intervals = [...before.reverse().filter((i) => i.to === null || i.to > from), ...inside];
  return {
    truncated: [inside, events, episodes, sessions].some((rows) => rows.length > maxRows),
    intervals: intervals.slice(0, maxRows).map((i) => ({
      state: i.state,
      from: i.from,
      fromAfter: i.fromAfter,
      to: i.to,
    })),
    events: events.slice(0, maxRows).map((e) => ({
      at: e.at,
      kind: e.kind,
      memberId: e.memberId,
      details: e.details,
    })),
    episodes: episodes.slice(0, maxRows).map((e) => ({
      startedAfter: e.startedAfter,
      detectedAt: e.detectedAt,
      endedBy: e.endedBy,
      observedInProgress: e.observedInProgress,
      rebalance: e.rebalance,
      causeKinds: e.causeKinds,
      causes: e.causes as unknown as Cause[],
      membersBefore: e.membersBefore as unknown as string[],
      membersAfter: e.membersAfter as unknown as string[],
      partitionsMoved: e.partitionsMoved as unknown as MovedPartition[],
      epochBefore: e.epochBefore,
      epochAfter: e.epochAfter,
    })),
    sessions: sessions.slice(0, maxRows).map((s) => ({
      memberId: s.memberId,
      groupInstanceId: s.groupInstanceId,
      clientId: s.clientId,
      clientHost: s.clientHost,
      joinedAt: s.joinedAt,
      joinedObserved: s.joinedObserved,
      leftAt: s.leftAt,
      leftHow: s.leftHow,
      assignment: s.assignment as unknown as TopicPartitions[],
    })),
  };
}
