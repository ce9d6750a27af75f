// Alert rule evaluation for one group at one poll: pure, time passed in.
//
// Every rule yields a finding each time, firing or not, so the incident logic can resolve what
// no longer holds; a disabled rule yields firing=false with details.disabled = true (an open
// incident of a rule switched off resolves). Thresholds are inclusive (config.ts).

import { REBALANCING_STATES } from "../timeline";
import type { EffectiveRules, Rule } from "./config";
import { statusRank, toBigOrNull, type ConsumerStatus } from "./consumer-status";
import type { RuleKind, Severity } from "./notification";

export type Details = Record<string, number | string | boolean | null>;

export interface Finding {
  kind: RuleKind;
  firing: boolean;
  severity: Severity;
  /** One line for a human, without the group id, e.g. "4 rebalances in 10 min". */
  summary: string;
  /** The numbers behind the decision (thresholds included). */
  details: Details;
}

export interface EpisodeInput {
  detectedAt: number;
  startedAfter: number;
  endedBy: number | null;
  /** Only rebalances count for storms (not a static member's restart without one). */
  rebalance: boolean;
}

export interface GroupAlertInput {
  groupId: string;
  type: string;
  /** Kafka group state: Stable, Empty, PreparingRebalance, CompletingRebalance, Assigning,
   *  Reconciling, Dead, or anything newer. */
  state: string;
  /** When the current state began (epoch ms), null when unknown. */
  stateSince: number | null;
  memberCount: number;
  /** Decimal strings (int64). */
  totalLag: string;
  maxLag: string | null;
  lagSeconds: number | null;
  consumerStatus: ConsumerStatus;
  /** Recent episodes, including ones inferred between polls. */
  episodes: EpisodeInput[];
  /** Whether the group has had members since it was first watched. "Emptied" means it WENT
   *  Empty: a group only ever seen Empty (abandoned offsets, a reset by a tool) does not fire.
   *  Undefined: unknown, treated as true. */
  hadMembers?: boolean;
}

export interface LagPoint {
  at: number;
  totalLag: string;
}

/** JSON-serializable: persisted between cycles. */
export interface GroupAlertState {
  version: 1;
  /** Since when each sustained condition has held continuously; null when it does not. */
  pendingSince: Record<RuleKind, number | null>;
  /** (at, totalLag) points of the last LAG_GROWTH_WINDOW_MS, at most LAG_HISTORY_MAX. */
  lagHistory: LagPoint[];
}

/** The growth rate is measured over this much history. */
export const LAG_GROWTH_WINDOW_MS = 300_000;
export const LAG_HISTORY_MAX = 64;

export function evaluateGroup(
  prev: GroupAlertState | null,
  input: GroupAlertInput,
  rules: EffectiveRules,
  now: number,
): { state: GroupAlertState; findings: Finding[] } {
  const lagHistory = nextLagHistory(prev?.lagHistory ?? [], input.totalLag, now);
  const pendingSince: Record<RuleKind, number | null> = {
    storm: null,
    stuck: null,
    lag: null,
    status: null,
    emptied: null,
  };

  const findings: Finding[] = [];
  findings.push(gate(rules.storm, () => storm(rules.storm, input, now)));
  findings.push(gate(rules.stuck, () => stuck(rules.stuck, input, now)));
  findings.push(
    gate(rules.lag, () => {
      const r = lag(rules.lag, input, lagHistory, prev?.pendingSince.lag ?? null, now);
      pendingSince.lag = r.pendingSince;
      return r.finding;
    }),
  );
  findings.push(gate(rules.status, () => status(rules.status, input)));
  findings.push(gate(rules.emptied, () => emptied(rules.emptied, input)));
  return { state: { version: 1, pendingSince, lagHistory }, findings };
}

function gate(rule: Rule, evaluate: () => Finding): Finding {
  if (rule.enabled) return evaluate();
  return {
    kind: rule.kind,
    firing: false,
    severity: rule.severity,
    summary: "rule disabled",
    details: { disabled: true },
  };
}

function nextLagHistory(prev: readonly LagPoint[], totalLag: string, now: number): LagPoint[] {
  const kept = prev.filter((p) => p.at < now && p.at >= now - LAG_GROWTH_WINDOW_MS);
  kept.push({ at: now, totalLag });
  return kept.slice(-LAG_HISTORY_MAX);
}

/** Offsets per minute between the oldest and newest point; null with fewer than two points. */
export function lagGrowthPerMin(history: readonly LagPoint[]): number | null {
  const first = history[0];
  const last = history.at(-1);
  if (!first || !last || last.at <= first.at) return null;
  const a = toBigOrNull(first.totalLag);
  const b = toBigOrNull(last.totalLag);
  if (a === null || b === null) return null;
  return (Number(b - a) * 60_000) / (last.at - first.at);
}

/** "10 min", "90 s", "1 h 30 min": for summaries. */
export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60 || (s < 120 && s % 60 !== 0)) return `${s} s`;
  const min = Math.round(s / 60);
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  const rest = min % 60;
  return rest === 0 ? `${h} h` : `${h} h ${rest} min`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function storm(rule: Rule<"storm">, input: GroupAlertInput, now: number): Finding {
  const { minEpisodes, windowMs } = rule.params;
  const count = input.episodes.filter(
    (e) => e.rebalance && e.detectedAt > now - windowMs && e.detectedAt <= now,
  ).length;
  return {
    kind: "storm",
    firing: count >= minEpisodes,
    severity: rule.severity,
    summary: `${plural(count, "rebalance")} in ${formatDuration(windowMs)}`,
    details: { episodes: count, minEpisodes, windowMs },
  };
}

function stuck(rule: Rule<"stuck">, input: GroupAlertInput, now: number): Finding {
  const { afterMs } = rule.params;
  const rebalancing = REBALANCING_STATES.has(input.state);
  const forMs = rebalancing && input.stateSince !== null ? Math.max(0, now - input.stateSince) : null;
  const firing = forMs !== null && forMs >= afterMs;
  return {
    kind: "stuck",
    firing,
    severity: rule.severity,
    summary: rebalancing
      ? `in ${input.state} for ${forMs === null ? "an unknown time" : formatDuration(forMs)}`
      : `not rebalancing (${input.state})`,
    details: { state: input.state, stateSince: input.stateSince, forMs, afterMs, members: input.memberCount },
  };
}

function lag(
  rule: Rule<"lag">,
  input: GroupAlertInput,
  history: readonly LagPoint[],
  prevPendingSince: number | null,
  now: number,
): { finding: Finding; pendingSince: number | null } {
  const p = rule.params;
  const total = toBigOrNull(input.totalLag);
  const max = toBigOrNull(input.maxLag);
  const growth = lagGrowthPerMin(history);
  const reached = (v: bigint | number | null, t: number | null) =>
    v !== null && t !== null && (typeof v === "bigint" ? v >= BigInt(Math.ceil(t)) : v >= t);
  const breached: string[] = [];
  if (reached(total, p.totalOffsets)) breached.push("totalOffsets");
  if (reached(max, p.maxPartitionOffsets)) breached.push("maxPartitionOffsets");
  if (reached(input.lagSeconds, p.seconds)) breached.push("seconds");
  if (reached(growth, p.growthPerMin)) breached.push("growthPerMin");

  const holding = breached.length > 0;
  const pendingSince = holding ? (prevPendingSince ?? now) : null;
  const heldMs = pendingSince === null ? 0 : now - pendingSince;
  const firing = holding && heldMs >= p.sustainMs;

  const describe: Record<string, string> = {
    totalOffsets: `total lag ${input.totalLag} (limit ${p.totalOffsets})`,
    maxPartitionOffsets: `partition lag ${input.maxLag} (limit ${p.maxPartitionOffsets})`,
    seconds: `${Math.round(input.lagSeconds ?? 0)} s behind (limit ${p.seconds} s)`,
    growthPerMin: `lag growing ${Math.round(growth ?? 0)}/min (limit ${p.growthPerMin}/min)`,
  };
  const summary = holding
    ? `${breached.map((b) => describe[b]).join(", ")} for ${formatDuration(heldMs)}`
    : `total lag ${input.totalLag}${input.lagSeconds === null ? "" : `, ${Math.round(input.lagSeconds)} s behind`}, within limits`;

  return {
    pendingSince,
    finding: {
      kind: "lag",
      firing,
      severity: rule.severity,
      summary,
      details: {
        totalLag: input.totalLag,
        maxLag: input.maxLag,
        lagSeconds: input.lagSeconds,
        growthPerMin: growth === null ? null : Math.round(growth * 100) / 100,
        totalOffsets: p.totalOffsets,
        maxPartitionOffsets: p.maxPartitionOffsets,
        seconds: p.seconds,
        growthPerMinThreshold: p.growthPerMin,
        breached: breached.join(",") || null,
        pendingSince,
        heldMs,
        sustainMs: p.sustainMs,
      },
    },
  };
}

function status(rule: Rule<"status">, input: GroupAlertInput): Finding {
  const { minStatus } = rule.params;
  const s = input.consumerStatus;
  const firing = s !== "unknown" && statusRank(s) >= statusRank(minStatus);
  return {
    kind: "status",
    firing,
    severity: rule.severity,
    summary: `consumer status ${s}`,
    details: { status: s, minStatus },
  };
}

function emptied(rule: Rule<"emptied">, input: GroupAlertInput): Finding {
  const { minLag } = rule.params;
  const total = toBigOrNull(input.totalLag);
  const empty = input.state === "Empty";
  const wentEmpty = input.hadMembers !== false;
  const firing = empty && wentEmpty && total !== null && total >= BigInt(minLag);
  return {
    kind: "emptied",
    firing,
    severity: rule.severity,
    summary: !empty
      ? `${plural(input.memberCount, "member")} (${input.state})`
      : wentEmpty
        ? `no members, lag ${input.totalLag} left`
        : "never had members while watched",
    details: {
      state: input.state,
      members: input.memberCount,
      totalLag: input.totalLag,
      minLag,
      ...(wentEmpty ? {} : { hadMembers: false }),
    },
  };
}
