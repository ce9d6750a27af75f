import type { Details, GroupAlertState, OpenIncident, RuleOverride, SilenceRow } from "../../domain/alerts";
import type {
  ConsumerStatus,
  ConsumerStatusState,
  PartitionStatus,
} from "../../domain/alerts/consumer-status";
import type { AlertNotification, RuleKind, Severity } from "../../domain/alerts/notification";
import type { Prisma, PrismaClient } from "../client";
import { pgText } from "./groups";
import { enqueueNotification } from "./outbox";

// What the collector's alert step reads and writes: rule overrides, silences, open incidents,
// the per-group status/alert windows, and incident changes written together with their outbox
// rows (one transaction: a crash after it still delivers, a crash before it decides again).

/** Persisted per group in consumer_status_window.window. */
export interface StoredAlertWindow {
  version: 1;
  status: ConsumerStatusState | null;
  alert: GroupAlertState | null;
  partitions: PartitionStatus[];
  /** The group has had members since it was first watched (see the "emptied" rule). */
  hadMembers?: boolean;
}

export async function loadAlertWindows(
  db: PrismaClient,
  clusterId: string,
): Promise<Map<string, { status: ConsumerStatus; window: StoredAlertWindow }>> {
  const rows = await db.consumerStatusWindow.findMany({ where: { clusterId } });
  return new Map(
    rows.map((r) => [
      r.groupKey,
      { status: r.status as ConsumerStatus, window: r.window as unknown as StoredAlertWindow },
    ]),
  );
}

export async function saveAlertWindows(
  db: PrismaClient,
  clusterId: string,
  at: Date,
  rows: readonly { groupKey: string; status: ConsumerStatus; window: StoredAlertWindow }[],
): Promise<void> {
  if (rows.length === 0) return;
  await db.$executeRaw`
    INSERT INTO consumer_status_window (cluster_id, group_key, status, "window", updated_at)
    SELECT ${clusterId}::uuid, x.k, x.s, x.w::jsonb, ${at}
    FROM unnest(${rows.map((r) => r.groupKey)}::text[], ${rows.map((r) => r.status)}::text[],
      ${rows.map((r) => pgText(JSON.stringify(r.window)))}::text[]) AS x(k, s, w)
    ON CONFLICT (cluster_id, group_key) DO UPDATE SET status = EXCLUDED.status, "window" = EXCLUDED."window",
      updated_at = EXCLUDED.updated_at`;
}

export async function deleteAlertWindows(db: PrismaClient, clusterId: string, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await db.consumerStatusWindow.deleteMany({ where: { clusterId, groupKey: { in: keys } } });
}

export interface AlertInputs {
  overrides: RuleOverride[];
  silences: SilenceRow[];
  /** Open incidents by group key. */
  open: Map<string, (OpenIncident & { groupId: string })[]>;
  /** Recent episodes by group key. */
  episodes: Map<
    string,
    { detectedAt: number; startedAfter: number; endedBy: number | null; rebalance: boolean }[]
  >;
}

/** Everything the alert step needs for one cycle, in four queries whatever the group count. */
export async function loadAlertInputs(
  db: PrismaClient,
  clusterId: string,
  now: Date,
  episodeWindowMs: (overrides: RuleOverride[]) => number,
): Promise<AlertInputs> {
  const rules = await db.alertRule.findMany({ where: { OR: [{ clusterId: null }, { clusterId }] } });
  const overrides = rules.map((r) => ({
    clusterId: r.clusterId,
    groupGlob: r.groupGlob,
    kind: r.kind,
    enabled: r.enabled,
    params: r.params,
  }));
  const [silences, incidents, episodes] = await Promise.all([
    db.silence.findMany({
      where: { OR: [{ clusterId: null }, { clusterId }], endsAt: { gt: now }, startsAt: { lte: now } },
    }),
    db.incident.findMany({ where: { clusterId, state: "open" } }),
    db.rebalanceEpisode.findMany({
      where: { clusterId, detectedAt: { gt: new Date(now.getTime() - episodeWindowMs(overrides)) } },
      select: { groupKey: true, detectedAt: true, startedAfter: true, endedBy: true, rebalance: true },
    }),
  ]);
  const open = new Map<string, (OpenIncident & { groupId: string })[]>();
  for (const i of incidents) {
    const list = open.get(i.groupKey) ?? [];
    list.push({
      id: i.id,
      groupId: i.groupId,
      kind: i.kind as RuleKind,
      openedAt: i.openedAt.getTime(),
      lastNotifiedAt: i.lastNotifiedAt?.getTime() ?? null,
      sequence: i.sequence,
      details: i.details as Details,
      severity: i.severity as Severity,
      summary: i.summary,
    });
    open.set(i.groupKey, list);
  }
  const byGroup = new Map<string, AlertInputs["episodes"] extends Map<string, infer V> ? V : never>();
  for (const e of episodes) {
    const list = byGroup.get(e.groupKey) ?? [];
    list.push({
      detectedAt: e.detectedAt.getTime(),
      startedAfter: e.startedAfter.getTime(),
      endedBy: e.endedBy?.getTime() ?? null,
      rebalance: e.rebalance,
    });
    byGroup.set(e.groupKey, list);
  }
  return {
    overrides,
    silences: silences.map((s) => ({
      clusterId: s.clusterId,
      groupGlob: s.groupGlob,
      kind: s.kind,
      startsAt: s.startsAt.getTime(),
      endsAt: s.endsAt.getTime(),
    })),
    open,
    episodes: byGroup,
  };
}

export interface IncidentChange {
  type: "open" | "update" | "resolve";
  /** Given for update/resolve; for open, the id is chosen here (uuid) before the insert. */
  incidentId: string;
  groupKey: string;
  groupId: string;
  kind: RuleKind;
  severity: Severity;
  summary: string;
  details: Details;
  openedAt: number;
  sequence: number;
  at: number;
  notified: boolean;
  /** Built with the final incident id; written to the outbox in the same transaction. */
  notification: AlertNotification | null;
}

const json = (v: unknown) => JSON.parse(pgText(JSON.stringify(v))) as Prisma.InputJsonValue;

/** Applies one incident change and enqueues its notification atomically. */
export async function applyIncidentChange(
  db: PrismaClient,
  clusterId: string,
  c: IncidentChange,
): Promise<void> {
  await db.$transaction(async (tx) => {
    const at = new Date(c.at);
    const summary = pgText(c.summary).slice(0, 2000);
    if (c.type === "open") {
      await tx.incident.create({
        data: {
          id: c.incidentId,
          clusterId,
          groupKey: c.groupKey,
          groupId: pgText(c.groupId),
          kind: c.kind,
          state: "open",
          severity: c.severity,
          openedAt: new Date(c.openedAt),
          updatedAt: at,
          lastNotifiedAt: c.notified ? at : null,
          sequence: c.sequence,
          summary,
          details: json(c.details),
        },
      });
    } else {
      await tx.incident.update({
        where: { id: c.incidentId },
        data: {
          state: c.type === "resolve" ? "resolved" : "open",
          severity: c.severity,
          updatedAt: at,
          resolvedAt: c.type === "resolve" ? at : undefined,
          lastNotifiedAt: c.notified ? at : undefined,
          sequence: c.sequence,
          summary,
          details: json(c.details),
        },
      });
    }
    if (c.notification) await enqueueNotification(tx, c.notification);
  });
}
