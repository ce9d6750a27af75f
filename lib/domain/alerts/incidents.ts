// Incident decisions for one group: which incidents to open, update, resolve, and which of
// those changes to notify. Pure: ids are created by the caller (the database row's uuid) after
// an "open" decision; the caller stores `sequence`, and sets lastNotifiedAt = now when `notify`.
//
// - One open incident per (group, kind). A firing finding opens one; a non-firing finding
//   resolves it; a kind without a finding leaves its incident as it is.
// - Silenced kinds still open, update and resolve incidents (they are recorded) with
//   notify=false. An incident no receiver has heard of (sequence 0, opened under a silence)
//   triggers at the first evaluation after the silence ends; one already notified re-notifies
//   on the usual schedule (now - lastNotifiedAt >= renotifyMs; renotifyMs 0: never).
// - A resolve notifies when receivers were told about the incident (sequence > 0), even under
//   a silence: muting must not strand an open PagerDuty incident or Alertmanager alert. A
//   never-notified incident resolves quietly.

import type { Details, Finding } from "./rules";
import type { AlertNotification, NotificationEvent, RuleKind, Severity } from "./notification";

export interface OpenIncident {
  id: string;
  kind: RuleKind;
  openedAt: number;
  lastNotifiedAt: number | null;
  /** Notifications sent so far: 0 when none (opened under a silence). */
  sequence: number;
  details: Details;
  /** When given, a change of severity or summary also counts as an update. */
  severity?: Severity;
  summary?: string;
}

export interface DecisionContext {
  now: number;
  renotifyMs: number;
  silenced: (kind: RuleKind) => boolean;
}

interface DecisionBase {
  kind: RuleKind;
  severity: Severity;
  summary: string;
  details: Details;
  /** Incident open time (now for an open decision). */
  openedAt: number;
  notify: boolean;
  /** What to send when notify; null otherwise. */
  event: Exclude<NotificationEvent, "test"> | null;
  /** The incident's sequence after this decision (the notification's sequence when notify). */
  sequence: number;
  silenced: boolean;
}

export type OpenDecision = DecisionBase & { type: "open" };
export type UpdateDecision = DecisionBase & { type: "update"; incidentId: string; detailsChanged: boolean };
export type ResolveDecision = DecisionBase & { type: "resolve"; incidentId: string; resolvedAt: number };
export type Decision = OpenDecision | UpdateDecision | ResolveDecision;

/** Key-order-insensitive equality of flat details records. */
export function sameDetails(a: Details, b: Details): boolean {
  const ka = Object.keys(a).filter((k) => a[k] !== undefined);
  const kb = Object.keys(b).filter((k) => b[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => Object.is(a[k], b[k]));
}

export function decideIncidents(
  open: readonly OpenIncident[],
  findings: readonly Finding[],
  ctx: DecisionContext,
): Decision[] {
  const { now, renotifyMs } = ctx;
  const decisions: Decision[] = [];

  const byKind = new Map<RuleKind, OpenIncident>();
  for (const inc of [...open].sort((a, b) => a.openedAt - b.openedAt)) {
    if (!byKind.has(inc.kind)) {
      byKind.set(inc.kind, inc);
      continue;
    }
    // A duplicate should not exist (unique index); close it rather than keep two.
    decisions.push({
      type: "resolve",
      incidentId: inc.id,
      resolvedAt: now,
      kind: inc.kind,
      severity: inc.severity ?? "warning",
      summary: inc.summary ?? "duplicate incident closed",
      details: inc.details,
      openedAt: inc.openedAt,
      notify: inc.sequence > 0,
      event: inc.sequence > 0 ? "resolve" : null,
      sequence: inc.sequence > 0 ? inc.sequence + 1 : inc.sequence,
      silenced: ctx.silenced(inc.kind),
    });
  }

  const seen = new Set<RuleKind>();
  for (const f of findings) {
    if (seen.has(f.kind)) continue;
    seen.add(f.kind);
    const inc = byKind.get(f.kind);
    const silenced = ctx.silenced(f.kind);
    const base = { kind: f.kind, severity: f.severity, summary: f.summary, details: f.details, silenced };

    if (!inc) {
      if (!f.firing) continue;
      decisions.push({
        ...base,
        type: "open",
        openedAt: now,
        notify: !silenced,
        event: silenced ? null : "trigger",
        sequence: silenced ? 0 : 1,
      });
      continue;
    }

    if (!f.firing) {
      const told = inc.sequence > 0;
      decisions.push({
        ...base,
        type: "resolve",
        incidentId: inc.id,
        resolvedAt: now,
        openedAt: inc.openedAt,
        notify: told,
        event: told ? "resolve" : null,
        sequence: told ? inc.sequence + 1 : inc.sequence,
      });
      continue;
    }

    const detailsChanged =
      !sameDetails(inc.details, f.details) ||
      (inc.severity !== undefined && inc.severity !== f.severity) ||
      (inc.summary !== undefined && inc.summary !== f.summary);
    let event: "trigger" | "renotify" | null = null;
    if (!silenced) {
      if (inc.sequence === 0 || inc.lastNotifiedAt === null) event = "trigger";
      else if (renotifyMs > 0 && now - inc.lastNotifiedAt >= renotifyMs) event = "renotify";
    }
    if (!detailsChanged && event === null) continue;
    decisions.push({
      ...base,
      type: "update",
      incidentId: inc.id,
      detailsChanged,
      openedAt: inc.openedAt,
      notify: event !== null,
      event,
      sequence: event === null ? inc.sequence : inc.sequence + 1,
    });
  }
  return decisions;
}

/** Minutes of context either side of an incident in its timeline link. */
export const TIMELINE_MARGIN_MS = 15 * 60_000;

export interface NotificationContext {
  decision: Decision;
  /** Required for an open decision (the id the database gave the new incident). */
  incidentId?: string;
  /** Defaults to decision.sequence. */
  sequence?: number;
  cluster: { id: string; name: string };
  groupId: string;
  now: number;
  /** "https://groupwatch.example.com" or "" for base-relative links. */
  linkBase: string;
}

const iso = (ms: number) => new Date(ms).toISOString();

export function buildNotification(ctx: NotificationContext): AlertNotification {
  const d = ctx.decision;
  const incidentId = ctx.incidentId ?? (d.type === "open" ? undefined : d.incidentId);
  if (incidentId === undefined)
    throw new Error("buildNotification: an open decision needs the new incident's id");
  const event = d.event ?? (d.type === "open" ? "trigger" : d.type === "resolve" ? "resolve" : "renotify");
  const resolvedAt = d.type === "resolve" ? d.resolvedAt : null;

  const group = `${ctx.linkBase.replace(/\/+$/, "")}/clusters/${encodeURIComponent(ctx.cluster.name)}/groups/${encodeURIComponent(ctx.groupId)}`;
  const from = iso(d.openedAt - TIMELINE_MARGIN_MS);
  const to = iso((resolvedAt ?? ctx.now) + TIMELINE_MARGIN_MS);

  return {
    version: 1,
    event,
    incidentId,
    sequence: ctx.sequence ?? d.sequence,
    rule: d.kind,
    severity: d.severity,
    cluster: { id: ctx.cluster.id, name: ctx.cluster.name },
    group: { id: ctx.groupId },
    summary: `${ctx.groupId}: ${event === "resolve" ? "resolved, " : ""}${d.summary}`,
    openedAt: iso(d.openedAt),
    resolvedAt: resolvedAt === null ? null : iso(resolvedAt),
    at: iso(ctx.now),
    details: { ...d.details },
    links: { group, timeline: `${group}?from=${from}&to=${to}` },
  };
}
