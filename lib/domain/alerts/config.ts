// Alert rules: defaults in code, overrides as rows (alert_rule), silences (silence).
//
// Precedence, lowest first; a later layer overrides the fields it sets:
//   1. defaults (DEFAULT_RULES)
//   2. global rows: clusterId null, groupGlob null
//   3. cluster-wide rows: clusterId = this cluster, groupGlob null
//   4. group-glob rows whose glob matches the group id (clusterId null or this cluster), from
//      least to most specific: more literal (non-wildcard) characters wins, then fewer
//      wildcards, then a row scoped to this cluster over an any-cluster row; remaining ties by
//      glob text so the outcome does not depend on row order.
// Params merge field by field: `undefined` (absent) inherits, `null` is a value (for the lag
// thresholds it switches that threshold off). A row may also carry `severity` among its params
// (alert_rule has no column for it). Params that fail validation are ignored, and reported.
// Every threshold is inclusive: a rule fires when the value reaches it (>=).

import { z } from "zod";

import type { KnownStatus } from "./consumer-status";
import { compareGlobSpecificity, globMatch } from "./glob";
import { RULE_KINDS, type RuleKind, type Severity } from "./notification";

export const ZSeverity = z.enum(["warning", "critical"]);

const ms = z.number().int().nonnegative();
const offsets = z.number().int().nonnegative();

export const ZStormParams = z.object({
  /** Rebalances within windowMs that fire the rule. */
  minEpisodes: z.number().int().min(1),
  windowMs: ms.min(1),
});
export type StormParams = z.infer<typeof ZStormParams>;

export const ZStuckParams = z.object({
  /** Time in a rebalancing state that fires the rule. */
  afterMs: ms.min(1),
});
export type StuckParams = z.infer<typeof ZStuckParams>;

export const ZLagParams = z.object({
  /** Each threshold is optional (null: not checked); the rule fires when any is reached. */
  totalOffsets: offsets.nullable(),
  maxPartitionOffsets: offsets.nullable(),
  seconds: z.number().nonnegative().nullable(),
  /** Growth of the total lag, offsets per minute. */
  growthPerMin: z.number().positive().nullable(),
  /** How long a threshold must hold, continuously, before the rule fires. */
  sustainMs: ms,
});
export type LagParams = z.infer<typeof ZLagParams>;

export const ZMinStatus = z.enum(["WARN", "REWIND", "STALL", "STOP"]) satisfies z.ZodType<KnownStatus>;

export const ZStatusParams = z.object({
  /** Fires when the group's consumer status is this bad or worse (STATUS_ORDER). */
  minStatus: ZMinStatus,
});
export type StatusParams = z.infer<typeof ZStatusParams>;

export const ZEmptiedParams = z.object({
  /** Fires when the group is Empty and its total lag is at least this. */
  minLag: offsets.min(1),
});
export type EmptiedParams = z.infer<typeof ZEmptiedParams>;

export const PARAM_SCHEMAS = {
  storm: ZStormParams,
  stuck: ZStuckParams,
  lag: ZLagParams,
  status: ZStatusParams,
  emptied: ZEmptiedParams,
} as const;

export interface RuleParamsByKind {
  storm: StormParams;
  stuck: StuckParams;
  lag: LagParams;
  status: StatusParams;
  emptied: EmptiedParams;
}

export interface Rule<K extends RuleKind = RuleKind> {
  kind: K;
  enabled: boolean;
  severity: Severity;
  params: RuleParamsByKind[K];
}

export type EffectiveRules = { [K in RuleKind]: Rule<K> } & {
  /** Layers applied per kind, e.g. ["default", "global", "cluster", "group:orders-*"]. */
  sources: Record<RuleKind, string[]>;
  /** Override rows whose params were invalid and ignored (one line each). */
  warnings: string[];
};

export const DEFAULT_RULES: { [K in RuleKind]: Rule<K> } = {
  storm: { kind: "storm", enabled: true, severity: "warning", params: { minEpisodes: 3, windowMs: 600_000 } },
  stuck: { kind: "stuck", enabled: true, severity: "critical", params: { afterMs: 300_000 } },
  lag: {
    kind: "lag",
    enabled: true,
    severity: "warning",
    params: {
      totalOffsets: null,
      maxPartitionOffsets: null,
      seconds: 300,
      growthPerMin: null,
      sustainMs: 120_000,
    },
  },
  status: { kind: "status", enabled: true, severity: "critical", params: { minStatus: "STOP" } },
  emptied: { kind: "emptied", enabled: true, severity: "warning", params: { minLag: 1 } },
};

export const ZIncidentConfig = z.object({
  /** Re-send an open incident's notification this often; 0: never. */
  renotifyMs: ms,
});
export type IncidentConfig = z.infer<typeof ZIncidentConfig>;

export const DEFAULT_INCIDENT_CONFIG: IncidentConfig = { renotifyMs: 3_600_000 };

export const ZRuleKind = z.enum(RULE_KINDS as [RuleKind, ...RuleKind[]]);

export const isRuleKind = (k: string): k is RuleKind => (RULE_KINDS as readonly string[]).includes(k);

/** An alert_rule row as stored: `kind` and `params` unvalidated (rows of an unknown kind are
 *  skipped, invalid params ignored with a warning). */
export interface RuleOverride {
  clusterId: string | null;
  groupGlob: string | null;
  kind: string;
  /** null or absent: inherit. */
  enabled?: boolean | null;
  /** Partial params of the kind, optionally with `severity`. */
  params?: unknown;
}

/** For writes (API): a row whose kind and params are valid. */
export const ZRuleOverride = z
  .object({
    clusterId: z.string().min(1).nullable(),
    groupGlob: z.string().min(1).max(300).nullable(),
    kind: ZRuleKind,
    enabled: z.boolean().nullable().optional(),
    params: z.record(z.string(), z.unknown()).default({}),
  })
  .superRefine((o, ctx) => {
    const r = parseOverrideParams(o.kind, o.params);
    if (!r.ok) ctx.addIssue({ code: "custom", path: ["params"], message: r.error });
  });

/** Validates the partial params of an override (for writes: the API rejects bad rows). */
export function parseOverrideParams(
  kind: RuleKind,
  params: unknown,
):
  | { ok: true; params: Partial<RuleParamsByKind[RuleKind]>; severity?: Severity }
  | { ok: false; error: string } {
  const schema = PARAM_SCHEMAS[kind].partial().extend({ severity: ZSeverity.optional() }).strict();
  const r = schema.safeParse(params ?? {});
  if (!r.success) return { ok: false, error: z.prettifyError(r.error).replace(/\n/g, "; ") };
  const { severity, ...rest } = r.data as Record<string, unknown> & { severity?: Severity };
  const clean = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
  return severity === undefined ? { ok: true, params: clean } : { ok: true, params: clean, severity };
}

function layerOf(o: RuleOverride, clusterId: string, groupId: string): number | null {
  if (o.clusterId !== null && o.clusterId !== clusterId) return null;
  if (o.groupGlob === null) return o.clusterId === null ? 1 : 2;
  return globMatch(o.groupGlob, groupId) ? 3 : null;
}

function compareOverrides(a: { o: RuleOverride; layer: number }, b: { o: RuleOverride; layer: number }) {
  if (a.layer !== b.layer) return a.layer - b.layer;
  if (a.layer < 3) return 0;
  const ga = a.o.groupGlob ?? "";
  const gb = b.o.groupGlob ?? "";
  const spec = compareGlobSpecificity(ga, gb);
  if (spec !== 0) return spec;
  const scoped = (a.o.clusterId === null ? 0 : 1) - (b.o.clusterId === null ? 0 : 1);
  if (scoped !== 0) return scoped;
  return ga < gb ? -1 : ga > gb ? 1 : 0;
}

export function resolveRules(
  overrides: readonly RuleOverride[],
  clusterId: string,
  groupId: string,
): EffectiveRules {
  const sources = Object.fromEntries(RULE_KINDS.map((k) => [k, ["default"]])) as Record<RuleKind, string[]>;
  const warnings: string[] = [];
  const rules = structuredClone(DEFAULT_RULES) as Record<RuleKind, Rule>;

  const applicable: { o: RuleOverride & { kind: RuleKind }; layer: number }[] = [];
  for (const o of overrides) {
    const layer = layerOf(o, clusterId, groupId);
    if (layer !== null && isRuleKind(o.kind)) applicable.push({ o: { ...o, kind: o.kind }, layer });
  }
  // Stable sort: equal-rank global or cluster-wide rows keep their input order (later wins).
  applicable.sort(compareOverrides);

  for (const { o, layer } of applicable) {
    const rule = rules[o.kind];
    const label = layer === 1 ? "global" : layer === 2 ? "cluster" : `group:${o.groupGlob}`;
    if (o.enabled !== null && o.enabled !== undefined) rule.enabled = o.enabled;
    const parsed = parseOverrideParams(o.kind, o.params ?? {});
    if (parsed.ok) {
      rule.params = { ...rule.params, ...parsed.params };
      if (parsed.severity) rule.severity = parsed.severity;
    } else {
      warnings.push(`${o.kind} override (${label}) ignored params: ${parsed.error}`);
    }
    sources[o.kind].push(label);
  }
  return { ...(rules as EffectiveRules), sources, warnings };
}

export interface SilenceRow {
  clusterId: string | null;
  groupGlob: string | null;
  /** null: every rule. */
  kind: string | null;
  /** Epoch ms; active from startsAt (inclusive) to endsAt (exclusive). */
  startsAt: number;
  endsAt: number;
}

export function matchingSilences<S extends SilenceRow>(
  silences: readonly S[],
  clusterId: string,
  groupId: string,
  kind: RuleKind,
  now: number,
): S[] {
  return silences.filter(
    (s) =>
      s.startsAt <= now &&
      now < s.endsAt &&
      (s.clusterId === null || s.clusterId === clusterId) &&
      (s.kind === null || s.kind === kind) &&
      (s.groupGlob === null || globMatch(s.groupGlob, groupId)),
  );
}

export function isSilenced(
  silences: readonly SilenceRow[],
  clusterId: string,
  groupId: string,
  kind: RuleKind,
  now: number,
): boolean {
  return matchingSilences(silences, clusterId, groupId, kind, now).length > 0;
}
