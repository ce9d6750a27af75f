import { DEFAULT_RETENTION, type RetentionConfig } from "../config/retention";
import type { Cluster, PrismaClient } from "../db/client";
import { recordPoll } from "../db/queries/clusters";
import { GroupRowFilter, recordPollCycle, upsertGroups } from "../db/queries/groups";
import { enforceOutboxRetention, enforceRetention } from "../db/queries/retention";
import { DEFAULT_MAX_BACKOFF_MS, foldPollOutcome, nextPollDelayMs } from "../domain/poll-schedule";
import type { ClusterSnapshot } from "../domain/snapshot";
import { takeSnapshot, type SnapshotResult } from "../kafka/snapshot";
import { KafkaWire } from "../kafka/wire";
import type { Logger } from "../logger";
import { connectionFromRow } from "./cluster-connection";
import { AlertTracker, type AlertConfig } from "./alert-tracker";
import { LagTracker, type GroupLagTime } from "./lag-tracker";
import { TimelineTracker } from "./timeline-tracker";

export interface WorkerDeps {
  db: PrismaClient;
  secretKey: Buffer;
  log: Logger;
  collectorId: string;
  /** Renews this collector's lease on the cluster; false when another collector owns it. */
  holdsLease: () => Promise<boolean>;
  /** How long each kind of data is kept; enforced every `retentionEveryMs`. */
  retention?: RetentionConfig;
  retentionEveryMs?: number;
  alerts?: AlertConfig;
}

const DEFAULT_ALERTS: AlertConfig = { renotifyMs: 3_600_000, linkBase: "" };

const DEFAULT_RETENTION_EVERY_MS = 60_000;

/** What the worker hands on after each successful cycle (timelines, alerts subscribe here). */
export type SnapshotListener = (clusterId: string, snapshot: ClusterSnapshot) => Promise<void> | void;

// Polls one cluster on its interval until stopped. A failed poll is a recorded status and a
// backoff, never an exception out of the loop.
export class ClusterWorker {
  private wire: KafkaWire | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  private failures = 0;
  private lastBrokers = "";
  private readonly log: Logger;
  private readonly timeline: TimelineTracker;
  private readonly lag: LagTracker;
  private readonly alerts: AlertTracker;
  private readonly rows = new GroupRowFilter();
  private retentionAt = 0;

  constructor(
    private cluster: Cluster,
    private readonly deps: WorkerDeps,
  ) {
    this.log = deps.log.child({ cluster: cluster.name });
    this.timeline = new TimelineTracker(deps.db, cluster.id);
    this.lag = new LagTracker(deps.db, cluster.id);
    this.alerts = new AlertTracker(deps.db, cluster, deps.alerts ?? DEFAULT_ALERTS);
  }

  start(): void {
    this.schedule(0);
  }

  /** Takes a new row whose connection settings are unchanged (e.g. poll interval). */
  update(row: Cluster): void {
    this.cluster = row;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
    await this.lag.flush().catch((e: unknown) => {
      this.log.error({ error: describeError(e) }, "could not save the offset tables");
    });
    await this.alerts.flush().catch((e: unknown) => {
      this.log.error({ error: describeError(e) }, "could not save the consumer status windows");
    });
    await this.disconnect();
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.cycle().finally(() => {
        this.running = null;
      });
    }, delayMs);
  }

  private async cycle(): Promise<void> {
    if (!(await this.deps.holdsLease())) {
      // Another collector owns the cluster now; the collector stops this worker shortly.
      this.schedule(this.cluster.pollIntervalMs);
      return;
    }
    const started = Date.now();
    let error: string | null = null;
    let result: Awaited<ReturnType<typeof takeSnapshot>> | null = null;
    let requests: Record<string, number>;
    try {
      const wire = await this.connect();
      result = await takeSnapshot(wire);
      requests = result.snapshot.poll.requests;
    } catch (e) {
      error = describeError(e);
      requests = this.wire?.requestCounts ?? {};
      await this.disconnect();
    }
    const snapshot = result?.snapshot ?? null;
    const outcome = foldPollOutcome(this.failures, { ok: error === null, error });
    this.failures = outcome.consecutiveFailures;
    if (error) this.log.warn({ failures: this.failures, error }, "poll failed");
    else if (snapshot && snapshot.poll.errors.length > 0) {
      this.log.warn({ errors: snapshot.poll.errors.slice(0, 5) }, "poll completed with errors");
    }
    if (snapshot) this.logBrokerChanges(snapshot);
    let lagTimes = new Map<string, GroupLagTime>();
    if (snapshot) {
      try {
        lagTimes = await this.lag.observe(snapshot);
      } catch (e) {
        this.log.error({ error: describeError(e) }, "could not compute lag in seconds");
      }
    }
    const durationMs = Date.now() - started;
    try {
      if (snapshot && result) {
        const seconds = new Map([...lagTimes].map(([g, t]) => [g, t.seconds]));
        const changed = this.rows.changed(snapshot, seconds);
        try {
          await upsertGroups(
            this.deps.db,
            this.cluster.id,
            snapshot,
            result.listingComplete,
            seconds,
            changed,
          );
          this.rows.commit();
        } catch (e) {
          this.rows.forget();
          throw e;
        }
      }
      await recordPoll(this.deps.db, {
        clusterId: this.cluster.id,
        state: outcome.state,
        polledAt: new Date(started),
        durationMs,
        error: outcome.lastError,
        consecutiveFailures: outcome.consecutiveFailures,
        kafkaClusterId: snapshot?.kafkaClusterId ?? null,
        controllerId: snapshot?.controllerId ?? null,
        brokers: snapshot?.brokers ?? [],
        collectorId: this.deps.collectorId,
        topicCount: snapshot?.topics.filter((t) => !t.internal).length ?? null,
        partitionCount:
          snapshot?.topics.filter((t) => !t.internal).reduce((n, t) => n + t.partitions.length, 0) ?? null,
        groupCount: snapshot?.groups.length ?? null,
        requestCount: Object.values(requests).reduce((a, b) => a + b, 0),
      });
      await recordPollCycle(this.deps.db, this.cluster.id, this.deps.collectorId, snapshot, {
        startedAt: new Date(started),
        durationMs,
        requests,
        errors: error ? [error] : (snapshot?.poll.errors ?? []),
      });
    } catch (e) {
      this.log.error({ error: describeError(e) }, "could not record poll outcome");
    }
    if (result) await this.recordTimeline(result);
    if (snapshot) await this.recordLag(snapshot, lagTimes);
    if (result) await this.evaluateAlerts(result, lagTimes);
    await this.enforceRetention();
    this.schedule(
      nextPollDelayMs(this.failures, {
        intervalMs: this.cluster.pollIntervalMs,
        maxBackoffMs: DEFAULT_MAX_BACKOFF_MS,
      }),
    );
  }

  private async recordTimeline(result: SnapshotResult): Promise<void> {
    try {
      const written = await this.timeline.apply(result, {
        pollIntervalMs: this.cluster.pollIntervalMs,
        sessionTimeoutMs: this.cluster.sessionTimeoutMs,
        maxPollIntervalMs: this.cluster.maxPollIntervalMs,
        commitIntervalMs: this.cluster.commitIntervalMs,
      });
      for (const e of written.episodes.filter((x) => x.endedBy !== null && x.rebalance)) {
        this.log.info(
          { group: e.groupId, causes: e.causes.map((c) => c.kind), moved: e.partitionsMoved.length },
          "rebalance",
        );
      }
    } catch (e) {
      this.log.error({ error: describeError(e) }, "could not record the group timelines");
    }
  }

  private async recordLag(snapshot: ClusterSnapshot, times: Map<string, GroupLagTime>): Promise<void> {
    try {
      await this.lag.record(snapshot, times);
    } catch (e) {
      this.log.error({ error: describeError(e) }, "could not record lag history");
    }
  }

  private async evaluateAlerts(result: SnapshotResult, times: Map<string, GroupLagTime>): Promise<void> {
    try {
      const r = await this.alerts.apply(result.snapshot, result.listingComplete, times, (g) =>
        this.timeline.stateSince(g),
      );
      for (const d of r.decisions) {
        if (d.type === "update" && !d.notify) continue;
        this.log.info(
          { group: d.groupId, rule: d.kind, decision: d.type, notify: d.notify, summary: d.summary },
          "incident",
        );
      }
    } catch (e) {
      this.log.error({ error: describeError(e) }, "could not evaluate alerts");
    }
  }

  private async enforceRetention(): Promise<void> {
    const now = Date.now();
    if (now - this.retentionAt < (this.deps.retentionEveryMs ?? DEFAULT_RETENTION_EVERY_MS)) return;
    this.retentionAt = now;
    try {
      const r = await enforceRetention(
        this.deps.db,
        this.cluster.id,
        this.deps.retention ?? DEFAULT_RETENTION,
        new Date(now),
      );
      r.deleted.notifications = await enforceOutboxRetention(
        this.deps.db,
        this.deps.retention ?? DEFAULT_RETENTION,
        new Date(now),
      );
      const deleted = Object.values(r.deleted).reduce((a, b) => a + b, 0);
      if (r.rolledUpRaw + r.rolledUpMinutes + deleted > 0) this.log.info(r, "retention");
    } catch (e) {
      this.log.error({ error: describeError(e) }, "could not enforce retention");
    }
  }

  private logBrokerChanges(snapshot: ClusterSnapshot): void {
    const brokers = snapshot.brokers.map((b) => `${b.nodeId}@${b.host}:${b.port}`).join(",");
    if (brokers !== this.lastBrokers) {
      this.log.info({ brokers: snapshot.brokers, controllerId: snapshot.controllerId }, "cluster brokers");
      this.lastBrokers = brokers;
    }
  }

  private async connect(): Promise<KafkaWire> {
    if (this.wire) return this.wire;
    const wire = KafkaWire.create(connectionFromRow(this.cluster, this.deps.secretKey), this.deps.log);
    try {
      await wire.connect();
    } catch (e) {
      await wire.disconnect().catch(() => undefined);
      throw e;
    }
    this.wire = wire;
    return wire;
  }

  private async disconnect(): Promise<void> {
    const wire = this.wire;
    this.wire = null;
    if (!wire) return;
    try {
      await wire.disconnect();
    } catch {
      // A dead connection may fail to close; the next cycle reconnects anyway.
    }
  }
}

export function describeError(e: unknown): string {
  if (e instanceof Error) {
    const name = e.name && e.name !== "Error" ? `${e.name}: ` : "";
    return `${name}${e.message}`.slice(0, 2000);
  }
  return String(e).slice(0, 2000);
}
