// Rebalance forensics for a time window: what happened to which group, when and why, as a
// summary and as a Markdown incident report an SRE can paste into a post-mortem. Pure: rows in
// (already filtered to the window), values out.

import type { Cause, CauseKind, Episode } from "./timeline";

export type ForensicsEpisode = Pick<
  Episode,
  | "groupId"
  | "startedAfter"
  | "detectedAt"
  | "endedBy"
  | "observedInProgress"
  | "rebalance"
  | "causes"
  | "membersBefore"
  | "membersAfter"
  | "partitionsMoved"
>;

export interface ForensicsEvent {
  groupId: string;
  at: number;
  kind: string;
  memberId: string | null;
  details: Record<string, unknown>;
}

export interface ForensicsInput {
  cluster: string;
  from: number;
  to: number;
  episodes: ForensicsEpisode[];
  events: ForensicsEvent[];
  /** Peak total lag per group in the window, when known (decimal strings). */
  peakLag?: Record<string, string>;
}

export interface GroupSummary {
  groupId: string;
  rebalances: number;
  causes: Partial<Record<CauseKind, number>>;
  membersLost: number;
  /** Upper bound of the longest rebalance (endedBy - startedAfter), ms; null if none ended. */
  longestMs: number | null;
  peakLag: string | null;
}

export interface ForensicsSummary {
  rebalances: number;
  groups: GroupSummary[];
  causes: Partial<Record<CauseKind, number>>;
  membersLost: number;
  longest: { groupId: string; ms: number } | null;
}

const DEPARTURES = new Set<CauseKind>(["member-left", "member-crashed", "poll-timeout"]);

export function summarize(input: ForensicsInput): ForensicsSummary {
  const byGroup = new Map<string, GroupSummary>();
  const causes: Partial<Record<CauseKind, number>> = {};
  let longest: ForensicsSummary["longest"] = null;
  const groupOf = (groupId: string) => {
    let g = byGroup.get(groupId);
    if (!g) {
      g = {
        groupId,
        rebalances: 0,
        causes: {},
        membersLost: 0,
        longestMs: null,
        peakLag: input.peakLag?.[groupId] ?? null,
      };
      byGroup.set(groupId, g);
    }
    return g;
  };
  for (const e of input.episodes) {
    const g = groupOf(e.groupId);
    if (e.rebalance) g.rebalances++;
    for (const c of e.causes) {
      g.causes[c.kind] = (g.causes[c.kind] ?? 0) + 1;
      causes[c.kind] = (causes[c.kind] ?? 0) + 1;
      // A departure whose cause is unknown still lost a member.
      if (DEPARTURES.has(c.kind) || (c.kind === "unknown" && c.memberId !== undefined)) g.membersLost++;
    }
    if (e.rebalance && e.endedBy !== null) {
      const ms = e.endedBy - e.startedAfter;
      if (g.longestMs === null || ms > g.longestMs) g.longestMs = ms;
      if (!longest || ms > longest.ms) longest = { groupId: e.groupId, ms };
    }
  }
  const groups = [...byGroup.values()].sort(
    (a, b) => b.rebalances - a.rebalances || (a.groupId < b.groupId ? -1 : 1),
  );
  return {
    rebalances: groups.reduce((n, g) => n + g.rebalances, 0),
    groups,
    causes,
    membersLost: groups.reduce((n, g) => n + g.membersLost, 0),
    longest,
  };
}

/** Markdown-safe inline text: group and client ids are untrusted and may hold markup. */
export function mdText(s: string, max = 200): string {
  const bounded = s.length > max ? `${s.slice(0, max - 1)}…` : s;
  return bounded.replace(/[\\`*_{}[\]()<>#+\-.!|~]/g, (c) => `\\${c}`).replace(/[\r\n]+/g, " ");
}

const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function causeLine(c: Cause): string {
  const who = c.clientId ? ` client ${mdText(c.clientId)}` : "";
  const topic = c.topic ? ` topic ${mdText(c.topic)}` : "";
  const evidence = c.evidence.map((x) => mdText(x, 400)).join("; ");
  return `  - **${c.kind}**${who}${topic} (confidence ${c.confidence}): ${evidence}`;
}

export function renderMarkdown(input: ForensicsInput, summary = summarize(input)): string {
  const lines: string[] = [];
  lines.push(`# Rebalance forensics: ${mdText(input.cluster)}`);
  lines.push("");
  lines.push(`Window: ${iso(input.from)} to ${iso(input.to)} (UTC)`);
  lines.push("");
  lines.push("## Summary");
  lines.push("");
  lines.push(`- Rebalances: ${summary.rebalances} in ${summary.groups.length} group(s)`);
  lines.push(`- Members lost: ${summary.membersLost}`);
  const causeList = Object.entries(summary.causes)
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k} ${n}`)
    .join(", ");
  lines.push(`- Causes: ${causeList || "none"}`);
  if (summary.longest)
    lines.push(`- Longest rebalance: ≤ ${secs(summary.longest.ms)} in ${mdText(summary.longest.groupId)}`);
  lines.push("");
  if (summary.groups.length > 0) {
    lines.push("| group | rebalances | members lost | longest | peak lag | causes |");
    lines.push("|---|---|---|---|---|---|");
    for (const g of summary.groups) {
      const cs = Object.entries(g.causes)
        .map(([k, n]) => `${k} ${n}`)
        .join(", ");
      lines.push(
        `| ${mdText(g.groupId)} | ${g.rebalances} | ${g.membersLost} | ${g.longestMs === null ? "–" : `≤ ${secs(g.longestMs)}`} | ${g.peakLag ?? "–"} | ${cs} |`,
      );
    }
    lines.push("");
  }
  lines.push("## Timeline");
  lines.push("");
  const items = [
    ...input.episodes.map((e) => ({ at: e.detectedAt, episode: e })),
    ...input.events
      .filter(
        (e) => e.kind === "group-appeared" || e.kind === "group-deleted" || e.kind === "offsets-rewound",
      )
      .map((e) => ({ at: e.at, event: e })),
  ].sort((a, b) => a.at - b.at);
  if (items.length === 0) lines.push("Nothing happened in this window.");
  for (const item of items) {
    if ("episode" in item && item.episode) {
      const e = item.episode;
      const what = e.rebalance ? "rebalance" : "member replaced without a rebalance";
      const when =
        e.endedBy === null
          ? `between ${iso(e.startedAfter)} and now (still open)`
          : `between ${iso(e.startedAfter)} and ${iso(e.endedBy)}`;
      lines.push(
        `- ${iso(e.detectedAt)} **${mdText(e.groupId)}**: ${what} ${when}, ${e.observedInProgress ? "observed in progress" : "inferred between polls"}; members ${e.membersBefore.length} → ${e.membersAfter.length}, ${e.partitionsMoved.length} partition(s) moved`,
      );
      for (const c of e.causes) lines.push(causeLine(c));
    } else if ("event" in item && item.event) {
      const ev = item.event;
      lines.push(`- ${iso(ev.at)} **${mdText(ev.groupId)}**: ${ev.kind}`);
    }
  }
  lines.push("");
  return lines.join("\n");
}
