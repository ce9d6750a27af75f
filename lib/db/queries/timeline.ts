import { createHash } from "node:crypto";

import type {
  CauseAmendment,
  Episode,
  GroupTimelineState,
  MemberSession,
  StateInterval,
  TimelineEvent,
} from "../../domain/timeline";
import type { Prisma, PrismaClient } from "../client";
import { groupKey, pgText } from "./groups";

// Persistence of the timeline core's output. Every row carries a hash of the core's idempotent
// key, so writing the same step twice (a retry, a restart mid-cycle) changes nothing.

const hash = (key: string) => createHash("sha1").update(key).digest("hex");
const date = (ms: number | null) => (ms === null ? null : new Date(ms));
const json = (v: unknown) => v as Prisma.InputJsonValue;

export async function loadTimelineStates(
  db: PrismaClient,
  clusterId: string,
): Promise<Map<string, GroupTimelineState>> {
  const rows = await db.groupTimeline.findMany({ where: { clusterId } });
  return new Map(
    rows.map((r) => {
      const s = r.state as unknown as GroupTimelineState;
      return [s.groupId, s] as const;
    }),
  );
}

export interface TimelineWrite {
  events: TimelineEvent[];
  episodes: Episode[];
  sessions: MemberSession[];
  intervals: StateInterval[];
  amendments: CauseAmendment[];
  /** States to store (by group id); null deletes the stored state (group gone). */
  states: Map<string, GroupTimelineState | null>;
  at: number;
}

// The snapshot types hold bigint; the timeline state holds only strings and numbers, but the
// members inside it come from snapshots: serialise defensively.
// Postgres text and jsonb cannot hold U+0000, which untrusted ids may contain.
const plain = (v: unknown): Prisma.InputJsonValue =>
  JSON.parse(
    JSON.stringify(v, (_k, x: unknown) =>
      typeof x === "bigint" ? x.toString() : typeof x === "string" ? pgText(x) : x,
    ),
  ) as Prisma.InputJsonValue;

export async function writeTimeline(db: PrismaClient, clusterId: string, w: TimelineWrite): Promise<void> {
  const ops: Prisma.PrismaPromise<unknown>[] = [];
  if (w.events.length > 0) {
    ops.push(
      db.groupEvent.createMany({
        data: w.events.map((e) => ({
          clusterId,
          keyHash: hash(e.key),
          groupKey: groupKey(e.groupId),
          groupId: pgText(e.groupId),
          at: new Date(e.at),
          kind: e.kind,
          memberId: e.memberId === null ? null : pgText(e.memberId),
          details: plain(e.details),
        })),
        skipDuplicates: true,
      }),
    );
  }
  for (const e of w.episodes) {
    const data = {
      groupKey: groupKey(e.groupId),
      groupId: pgText(e.groupId),
      startedAfter: new Date(e.startedAfter),
      detectedAt: new Date(e.detectedAt),
      endedBy: date(e.endedBy),
      observedInProgress: e.observedInProgress,
      rebalance: e.rebalance,
      causeKinds: [...new Set(e.causes.map((c) => c.kind))].sort(),
      causes: plain(e.causes),
      membersBefore: json(e.membersBefore),
      membersAfter: json(e.membersAfter),
      partitionsMoved: plain(e.partitionsMoved),
      epochBefore: e.epochBefore,
      epochAfter: e.epochAfter,
    };
    const keyHash = hash(e.key);
    ops.push(
      db.rebalanceEpisode.upsert({
        where: { clusterId_keyHash: { clusterId, keyHash } },
        create: { clusterId, keyHash, ...data },
        update: data,
      }),
    );
  }
  for (const s of w.sessions) {
    const data = {
      groupKey: groupKey(s.groupId),
      memberId: pgText(s.memberId),
      groupInstanceId: s.groupInstanceId === null ? null : pgText(s.groupInstanceId),
      clientId: pgText(s.clientId),
      clientHost: pgText(s.clientHost),
      joinedAt: new Date(s.joinedAt),
      joinedObserved: s.joinedObserved,
      leftAt: date(s.leftAt),
      leftHow: s.leftHow,
      assignment: plain(s.assignment),
    };
    const keyHash = hash(s.key);
    ops.push(
      db.memberSession.upsert({
        where: { clusterId_keyHash: { clusterId, keyHash } },
        create: { clusterId, keyHash, ...data },
        update: data,
      }),
    );
  }
  for (const i of w.intervals) {
    const data = {
      groupKey: groupKey(i.groupId),
      state: i.state,
      from: new Date(i.from),
      fromAfter: date(i.fromAfter),
      to: date(i.to),
    };
    const keyHash = hash(i.key);
    ops.push(
      db.groupStateInterval.upsert({
        where: { clusterId_keyHash: { clusterId, keyHash } },
        create: { clusterId, keyHash, ...data },
        update: data,
      }),
    );
  }
  // The remembered states: one upsert and one delete for all groups, however many there are.
  const keep = [...w.states].filter((e): e is [string, GroupTimelineState] => e[1] !== null);
  const drop = [...w.states].filter(([, st]) => st === null).map(([groupId]) => groupKey(groupId));
  if (keep.length > 0) {
    ops.push(db.$executeRaw`
      INSERT INTO group_timeline (cluster_id, group_key, state, updated_at)
      SELECT ${clusterId}::uuid, x.k, x.s::jsonb, ${new Date(w.at)}
      FROM unnest(${keep.map(([groupId]) => groupKey(groupId))}::text[],
        ${keep.map(([, st]) => JSON.stringify(plain(st)))}::text[]) AS x(k, s)
      ON CONFLICT (cluster_id, group_key) DO UPDATE SET state = EXCLUDED.state, updated_at = EXCLUDED.updated_at`);
  }
  if (drop.length > 0) {
    ops.push(db.groupTimeline.deleteMany({ where: { clusterId, groupKey: { in: drop } } }));
  }
  if (ops.length > 0) await db.$transaction(ops);

  // A rejoin that explains an earlier departure rewrites that episode's cause.
  for (const a of w.amendments) {
    const row = await db.rebalanceEpisode.findUnique({
      where: { clusterId_keyHash: { clusterId, keyHash: hash(a.episodeKey) } },
    });
    if (!row) continue;
    const causes = (row.causes as unknown as Episode["causes"]).map((c) =>
      c.memberId === a.memberId && c.kind !== "member-joined"
        ? { ...c, kind: a.kind, confidence: a.confidence, evidence: [...c.evidence, a.evidence] }
        : c,
    );
    await db.rebalanceEpisode.update({
      where: { id: row.id },
      data: { causes: plain(causes), causeKinds: [...new Set(causes.map((c) => c.kind))].sort() },
    });
  }
}
