import { z } from "zod";

import type { PrismaClient } from "../db/client";
import { ZRuleKind } from "../domain/alerts/config";
import { BadRequestError, NotFoundError } from "./errors";
import { ZTime } from "./params";

// Silences: mute matching incidents' notifications for a while (the collector's alert tracker
// checks them before it enqueues). Expiring one sets its end to now; rows are kept as history.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_SILENCE_MS = 90 * 24 * 3_600_000;
/** Ended silences shown as "recent". */
export const RECENT_MS = 7 * 24 * 3_600_000;

const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** "90m", "2h", "1d" or "1h30m"; a number is milliseconds. */
export const ZDuration = z.union([
  z.number().int().positive(),
  z
    .string()
    .trim()
    .regex(/^(\d+[smhd])+$/, "a duration such as 30m, 2h, 1d or 1h30m")
    .transform((s) =>
      [...s.matchAll(/(\d+)([smhd])/g)].reduce(
        (ms, m) => ms + Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS],
        0,
      ),
    ),
]);

const ZWhen = z.union([
  z
    .number()
    .int()
    .nonnegative()
    .transform((n) => new Date(n)),
  ZTime,
]);

export const ZSilenceCreate = z
  .strictObject({
    clusterId: z.uuid("clusterId must be a cluster id").nullable().default(null),
    groupGlob: z.string().trim().min(1).max(300).nullable().default(null),
    kind: ZRuleKind.nullable().default(null),
    startsAt: ZWhen.optional(),
    endsAt: ZWhen.optional(),
    duration: ZDuration.optional(),
    comment: z.string().trim().min(1, "say why (a ticket, a maintenance window)").max(1000),
  })
  .superRefine((s, ctx) => {
    if ((s.endsAt === undefined) === (s.duration === undefined)) {
      ctx.addIssue({ code: "custom", path: ["endsAt"], message: "give endsAt or duration (one of them)" });
    }
  });
export type SilenceCreate = z.output<typeof ZSilenceCreate>;

export interface SilenceView {
  id: string;
  clusterId: string | null;
  cluster: string | null;
  groupGlob: string | null;
  kind: string | null;
  startsAt: string;
  endsAt: string;
  comment: string;
  createdBy: string;
  createdAt: string;
  active: boolean;
}

const include = { cluster: { select: { name: true } } } as const;

type Row = {
  id: string;
  clusterId: string | null;
  cluster: { name: string } | null;
  groupGlob: string | null;
  kind: string | null;
  startsAt: Date;
  endsAt: Date;
  comment: string;
  createdBy: string;
  createdAt: Date;
};

const view = (r: Row, now: number): SilenceView => ({
  id: r.id,
  clusterId: r.clusterId,
  cluster: r.cluster?.name ?? null,
  groupGlob: r.groupGlob,
  kind: r.kind,
  startsAt: r.startsAt.toISOString(),
  endsAt: r.endsAt.toISOString(),
  comment: r.comment,
  createdBy: r.createdBy,
  createdAt: r.createdAt.toISOString(),
  active: r.startsAt.getTime() <= now && now < r.endsAt.getTime(),
});

/** Active and upcoming silences (soonest end first), and those ended in the last 7 days. */
export async function listSilences(db: PrismaClient, now = new Date()) {
  const [current, recent] = await Promise.all([
    db.silence.findMany({ where: { endsAt: { gt: now } }, include, orderBy: { endsAt: "asc" }, take: 500 }),
    db.silence.findMany({
      where: { endsAt: { lte: now, gt: new Date(now.getTime() - RECENT_MS) } },
      include,
      orderBy: { endsAt: "desc" },
      take: 100,
    }),
  ]);
  const t = now.getTime();
  return { active: current.map((r) => view(r, t)), recent: recent.map((r) => view(r, t)) };
}

export async function createSilence(
  db: PrismaClient,
  input: SilenceCreate,
  createdBy: string,
  now = new Date(),
) {
  const startsAt = input.startsAt ?? now;
  const endsAt = input.endsAt ?? new Date(startsAt.getTime() + (input.duration ?? 0));
  if (endsAt.getTime() <= startsAt.getTime()) {
    throw new BadRequestError("endsAt: must be after startsAt", [
      { path: "endsAt", message: "must be after startsAt" },
    ]);
  }
  if (endsAt.getTime() <= now.getTime()) {
    throw new BadRequestError("endsAt: is in the past", [{ path: "endsAt", message: "is in the past" }]);
  }
  if (endsAt.getTime() - startsAt.getTime() > MAX_SILENCE_MS) {
    throw new BadRequestError("a silence lasts at most 90 days", [
      { path: "endsAt", message: "at most 90 days" },
    ]);
  }
  if (input.clusterId !== null) {
    const found = await db.cluster.findUnique({ where: { id: input.clusterId }, select: { id: true } });
    if (!found) {
      throw new BadRequestError("clusterId: no such cluster", [
        { path: "clusterId", message: "no such cluster" },
      ]);
    }
  }
  const row = await db.silence.create({
    data: {
      clusterId: input.clusterId,
      groupGlob: input.groupGlob,
      kind: input.kind,
      startsAt,
      endsAt,
      comment: input.comment,
      createdBy,
    },
    include,
  });
  return { silence: view(row, now.getTime()) };
}

/** Ends a silence now (one not started yet ends before it starts). Expiring twice is harmless. */
export async function expireSilence(db: PrismaClient, id: string, now = new Date()) {
  const row = UUID.test(id) ? await db.silence.findUnique({ where: { id }, include }) : null;
  if (!row) throw new NotFoundError("no such silence");
  if (row.endsAt.getTime() <= now.getTime()) return { silence: view(row, now.getTime()) };
  const updated = await db.silence.update({
    where: { id },
    data: { endsAt: now, ...(row.startsAt > now ? { startsAt: now } : {}) },
    include,
  });
  return { silence: view(updated, now.getTime()) };
}
