import { z } from "zod";

import type { Prisma, PrismaClient } from "../db/client";
import { DEFAULT_RULES, parseOverrideParams, ZRuleKind } from "../domain/alerts/config";
import { RULE_KINDS, type RuleKind } from "../domain/alerts/notification";
import { BadRequestError, NotFoundError } from "./errors";
import { ConflictError } from "./handler";

// Alert rule overrides (alert_rule rows) for the admin API. The defaults live in code
// (DEFAULT_RULES); a row overrides some fields of one kind, for everything, one cluster, or the
// groups matching a glob. Params are validated by the kind's schema on every write, so the
// collector never has to ignore a row written here.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const ZGlob = z.string().trim().min(1).max(300);
const ZParams = z.record(z.string(), z.unknown());

export const ZRuleCreate = z.strictObject({
  clusterId: z.uuid("clusterId must be a cluster id").nullable().default(null),
  groupGlob: ZGlob.nullable().default(null),
  kind: ZRuleKind,
  enabled: z.boolean().default(true),
  params: ZParams.default({}),
});
export type RuleCreate = z.output<typeof ZRuleCreate>;

export const ZRuleUpdate = z
  .strictObject({
    clusterId: z.uuid("clusterId must be a cluster id").nullable().optional(),
    groupGlob: ZGlob.nullable().optional(),
    kind: ZRuleKind.optional(),
    enabled: z.boolean().optional(),
    /** Replaces the row's params (each field of the kind's params is optional). */
    params: ZParams.optional(),
  })
  .refine((u) => Object.values(u).some((v) => v !== undefined), "nothing to change");
export type RuleUpdate = z.output<typeof ZRuleUpdate>;

export interface RuleOverrideView {
  id: string;
  clusterId: string | null;
  cluster: string | null;
  groupGlob: string | null;
  kind: string;
  enabled: boolean;
  params: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

const include = { cluster: { select: { name: true } } } as const;

type Row = {
  id: string;
  clusterId: string | null;
  cluster: { name: string } | null;
  groupGlob: string | null;
  kind: string;
  enabled: boolean;
  params: unknown;
  createdAt: Date;
  updatedAt: Date;
};

const view = (r: Row): RuleOverrideView => ({
  id: r.id,
  clusterId: r.clusterId,
  cluster: r.cluster?.name ?? null,
  groupGlob: r.groupGlob,
  kind: r.kind,
  enabled: r.enabled,
  params: (r.params ?? {}) as Record<string, unknown>,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

/** The params as stored: validated against the kind's schema (partial), severity included. */
function validParams(kind: RuleKind, params: Record<string, unknown>): Record<string, unknown> {
  const r = parseOverrideParams(kind, params);
  if (!r.ok) throw new BadRequestError(`params: ${r.error}`, [{ path: "params", message: r.error }]);
  return r.severity === undefined ? r.params : { ...r.params, severity: r.severity };
}

async function assertCluster(db: PrismaClient, clusterId: string | null): Promise<void> {
  if (clusterId === null) return;
  const found = await db.cluster.findUnique({ where: { id: clusterId }, select: { id: true } });
  if (!found) {
    throw new BadRequestError("clusterId: no such cluster", [
      { path: "clusterId", message: "no such cluster" },
    ]);
  }
}

// Two rows of one kind and scope would make the outcome depend on row order: one is enough.
async function assertUnique(
  db: PrismaClient,
  o: { clusterId: string | null; groupGlob: string | null; kind: string },
  exceptId?: string,
): Promise<void> {
  const dup = await db.alertRule.findFirst({
    where: {
      clusterId: o.clusterId,
      groupGlob: o.groupGlob,
      kind: o.kind,
      ...(exceptId ? { id: { not: exceptId } } : {}),
    },
    select: { id: true },
  });
  if (dup) {
    throw new ConflictError(
      `a ${o.kind} override for ${o.clusterId ? "this cluster" : "every cluster"} and ${
        o.groupGlob === null ? "every group" : `groups "${o.groupGlob}"`
      } exists already: edit it instead`,
    );
  }
}

/** The defaults of every kind and every override row. */
export async function listRules(db: PrismaClient) {
  const rows = await db.alertRule.findMany({
    include,
    orderBy: [{ kind: "asc" }, { createdAt: "asc" }],
  });
  return {
    defaults: RULE_KINDS.map((k) => DEFAULT_RULES[k]),
    overrides: rows.map(view),
  };
}

export async function createRule(db: PrismaClient, input: RuleCreate) {
  const params = validParams(input.kind, input.params);
  await assertCluster(db, input.clusterId);
  await assertUnique(db, input);
  const row = await db.alertRule.create({
    data: {
      clusterId: input.clusterId,
      groupGlob: input.groupGlob,
      kind: input.kind,
      enabled: input.enabled,
      params: params as Prisma.InputJsonValue,
    },
    include,
  });
  return { rule: view(row) };
}

async function findRule(db: PrismaClient, id: string) {
  const row = UUID.test(id) ? await db.alertRule.findUnique({ where: { id } }) : null;
  if (!row) throw new NotFoundError("no such rule override");
  return row;
}

export async function updateRule(db: PrismaClient, id: string, patch: RuleUpdate) {
  const current = await findRule(db, id);
  const next = {
    clusterId: patch.clusterId === undefined ? current.clusterId : patch.clusterId,
    groupGlob: patch.groupGlob === undefined ? current.groupGlob : patch.groupGlob,
    kind: patch.kind ?? ZRuleKind.parse(current.kind),
    enabled: patch.enabled ?? current.enabled,
  };
  // A new kind re-checks the stored params against that kind's schema.
  const params = validParams(next.kind, patch.params ?? ((current.params ?? {}) as Record<string, unknown>));
  await assertCluster(db, next.clusterId);
  await assertUnique(db, next, id);
  const row = await db.alertRule.update({
    where: { id },
    data: { ...next, params: params as Prisma.InputJsonValue },
    include,
  });
  return { rule: view(row) };
}

export async function deleteRule(db: PrismaClient, id: string) {
  await findRule(db, id);
  await db.alertRule.deleteMany({ where: { id } });
  return { deleted: id };
}
