import { randomUUID } from "node:crypto";

import type { PrismaClient } from "../db/client";
import {
  applyIncidentChange,
  deleteAlertWindows,
  loadAlertInputs,
  loadAlertWindows,
  saveAlertWindows,
  type IncidentChange,
  type StoredAlertWindow,
} from "../db/queries/alerts";
import { groupKey } from "../db/queries/groups";
import {
  buildNotification,
  decideIncidents,
  DEFAULT_CONSUMER_STATUS_CONFIG,
  DEFAULT_RULES,
  ZStormParams,
  evaluateGroup,
  isSilenced,
  resolveRules,
  updateConsumerStatus,
  type ConsumerStatus,
  type Decision,
  type Finding,
  type OpenIncident,
  type RuleOverride,
} from "../domain/alerts";
import type { ClusterSnapshot, GroupSnapshot } from "../domain/snapshot";
import type { GroupLagTime } from "./lag-tracker";

// The alert step of a cycle: consumer status per group (Burrow's rules over the commit windows),
// every rule evaluated by the pure core, incident decisions applied with their notifications in
// the outbox (lib/alerts/deliverer.ts sends them). Windows live in memory and are saved every
// SAVE_EVERY_MS (and on a graceful stop) so they survive restarts.

const SAVE_EVERY_MS = 30_000;
const QUIET_UPDATE_EVERY_MS = 60_000;
/** Storm windows longer than this are capped (they would need more episode history per cycle). */
const MAX_EPISODE_WINDOW_MS = 24 * 3600_000;

export interface AlertConfig {
  renotifyMs: number;
  /** Base of the links in notifications ("" for base-relative links). */
  linkBase: string;
}

export interface AlertCycleResult {
  decisions: (Decision & { groupId: string })[];
  statuses: Map<string, ConsumerStatus>;
}

interface GroupWindow {
  status: ConsumerStatus;
  window: StoredAlertWindow;
}

export class AlertTracker {
  private windows: Map<string, GroupWindow> | null = null;
  private savedAt = 0;
  private readonly dirty = new Set<string>();
  private readonly quietUpdateAt = new Map<string, number>();

  constructor(
    private readonly db: PrismaClient,
    private readonly cluster: { id: string; name: string },
    private readonly cfg: AlertConfig,
  ) {}

  async apply(
    snapshot: ClusterSnapshot,
    listingComplete: boolean,
    lagTimes: ReadonlyMap<string, GroupLagTime>,
    stateSince: (groupId: string) => number | null,
  ): Promise<AlertCycleResult> {
    this.windows ??= await loadAlertWindows(this.db, this.cluster.id);
    const windows = this.windows;
    const at = snapshot.poll.startedAt.getTime();
    const now = new Date(at);
    const inputs = await loadAlertInputs(this.db, this.cluster.id, now, episodeWindowMs);
    const changes: IncidentChange[] = [];
    const result: AlertCycleResult = { decisions: [], statuses: new Map() };

    const decide = (key: string, groupId: string, findings: Finding[]) => {
      const open: OpenIncident[] = inputs.open.get(key) ?? [];
      const decisions = decideIncidents(open, findings, {
        now: at,
        renotifyMs: this.cfg.renotifyMs,
        silenced: (kind) => isSilenced(inputs.silences, this.cluster.id, groupId, kind, at),
      });
      for (const d of decisions) {
        result.decisions.push({ ...d, groupId });
        changes.push(this.change(d, key, groupId, at));
      }
    };

    const present = new Set<string>();
    for (const g of snapshot.groups) {
      const key = groupKey(g.groupId);
      present.add(key);
      // A group this cycle could not describe would look empty: judge it next cycle.
      if (g.errors.length > 0) continue;
      const prev = windows.get(key) ?? null;
      const status = updateConsumerStatus(
        prev?.window.status ?? null,
        { at, partitions: partitionInputs(g) },
        DEFAULT_CONSUMER_STATUS_CONFIG,
      );
      const hadMembers = (prev?.window.hadMembers ?? false) || g.members.length > 0;
      const rules = resolveRules(inputs.overrides, this.cluster.id, g.groupId);
      const time = lagTimes.get(g.groupId);
      const evaluated = evaluateGroup(
        prev?.window.alert ?? null,
        {
          groupId: g.groupId,
          type: g.type,
          state: g.state,
          stateSince: stateSince(g.groupId),
          memberCount: g.members.length,
          totalLag: g.lag.total.toString(),
          maxLag: g.lag.max?.toString() ?? null,
          lagSeconds: time?.seconds ?? null,
          consumerStatus: status.group,
          episodes: inputs.episodes.get(key) ?? [],
          hadMembers,
        },
        rules,
        at,
      );
      windows.set(key, {
        status: status.group,
        window: {
          version: 1,
          status: status.state,
          alert: evaluated.state,
          partitions: status.partitions,
          hadMembers,
        },
      });
      this.dirty.add(key);
      result.statuses.set(g.groupId, status.group);
      decide(key, g.groupId, evaluated.findings);
    }

    // Groups gone from a complete listing: their incidents resolve, their windows go.
    if (listingComplete) {
      for (const [key, open] of inputs.open) {
        if (present.has(key) || open.length === 0) continue;
        const groupId = open[0]?.groupId ?? key;
        decide(
          key,
          groupId,
          open.map((i) => ({
            kind: i.kind,
            firing: false,
            severity: i.severity ?? "warning",
            summary: "group no longer exists",
            details: { ...i.details, gone: true },
          })),
        );
      }
      const gone = [...windows.keys()].filter((k) => !present.has(k));
      for (const k of gone) {
        windows.delete(k);
        this.dirty.delete(k);
      }
      await deleteAlertWindows(this.db, this.cluster.id, gone);
    }

    // One transaction per incident change: each is atomic with its outbox rows. An update that
    // notifies nobody (the numbers moved) is written at most once a minute per incident, so a
    // few hundred lagging groups do not mean a few hundred transactions every cycle.
    for (const c of changes) {
      if (c.type === "update" && !c.notified) {
        const last = this.quietUpdateAt.get(c.incidentId);
        if (last !== undefined && at - last < QUIET_UPDATE_EVERY_MS) continue;
        this.quietUpdateAt.set(c.incidentId, at);
      } else if (c.type === "resolve") {
        this.quietUpdateAt.delete(c.incidentId);
      }
      await applyIncidentChange(this.db, this.cluster.id, c);
    }
    if (at - this.savedAt >= SAVE_EVERY_MS) await this.flush(at);
    return result;
  }

  /** Saves the windows changed since the last save (also on a graceful stop). */
  async flush(at = Date.now()): Promise<void> {
    const windows = this.windows;
    if (!windows || this.dirty.size === 0) return;
    const rows = [...this.dirty].flatMap((k) => {
      const w = windows.get(k);
      return w ? [{ groupKey: k, status: w.status, window: w.window }] : [];
    });
    await saveAlertWindows(this.db, this.cluster.id, new Date(at), rows);
    this.dirty.clear();
    this.savedAt = at;
  }

  private change(d: Decision, key: string, groupId: string, at: number): IncidentChange {
    const incidentId = d.type === "open" ? randomUUID() : d.incidentId;
    return {
      type: d.type,
      incidentId,
      groupKey: key,
      groupId,
      kind: d.kind,
      severity: d.severity,
      summary: d.summary,
      details: d.details,
      openedAt: d.openedAt,
      sequence: d.sequence,
      at,
      notified: d.notify,
      notification: d.notify
        ? buildNotification({
            decision: d,
            incidentId,
            cluster: this.cluster,
            groupId,
            now: at,
            linkBase: this.cfg.linkBase,
          })
        : null,
    };
  }
}

/** The longest storm window the default or any override asks for (episodes to load per cycle). */
function episodeWindowMs(overrides: RuleOverride[]): number {
  let ms = DEFAULT_RULES.storm.params.windowMs;
  for (const o of overrides) {
    if (o.kind !== "storm") continue;
    const p = ZStormParams.partial().safeParse(o.params);
    if (p.success && p.data.windowMs !== undefined) ms = Math.max(ms, p.data.windowMs);
  }
  return Math.min(ms, MAX_EPISODE_WINDOW_MS);
}

/** The partitions of a group with "assigned to a live member" (lets STALL be told from STOP). */
function partitionInputs(g: GroupSnapshot) {
  const assigned = new Set<string>();
  for (const m of g.members)
    for (const tp of m.assignment) for (const p of tp.partitions) assigned.add(`${tp.topic}:${p}`);
  return g.lag.partitions.map((p) => ({
    topic: p.topic,
    partition: p.partition,
    committedOffset: p.committedOffset?.toString() ?? null,
    logEndOffset: p.logEndOffset?.toString() ?? null,
    lag: p.lag?.toString() ?? null,
    assigned: assigned.has(`${p.topic}:${p.partition}`),
  }));
}
