import type { Admin } from "kafkajs";

import type { Cluster, PrismaClient } from "../db/client";
import { recordPoll } from "../db/queries/clusters";
import { DEFAULT_MAX_BACKOFF_MS, foldPollOutcome, nextPollDelayMs } from "../domain/poll-schedule";
import { describeCluster } from "../kafka/admin";
import { createKafka } from "../kafka/client";
import type { Logger } from "../logger";
import { connectionFromRow } from "./cluster-connection";

export interface WorkerDeps {
  db: PrismaClient;
  secretKey: Buffer;
  log: Logger;
  collectorId: string;
}

// Polls one cluster on its interval until stopped. A failed poll is a recorded status and a
// backoff, never an exception out of the loop.
export class ClusterWorker {
  private admin: Admin | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  private failures = 0;
  private lastBrokers = "";
  private readonly log: Logger;

  constructor(
    private cluster: Cluster,
    private readonly deps: WorkerDeps,
  ) {
    this.log = deps.log.child({ cluster: cluster.name });
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
    const started = Date.now();
    let error: string | null = null;
    let info: Awaited<ReturnType<typeof describeCluster>> | null = null;
    try {
      const admin = await this.connect();
      info = await describeCluster(admin);
    } catch (e) {
      error = describeError(e);
      await this.disconnect();
    }
    const outcome = foldPollOutcome(this.failures, { ok: error === null, error });
    this.failures = outcome.consecutiveFailures;
    if (error) this.log.warn({ failures: this.failures, error }, "poll failed");
    if (info) {
      const brokers = info.brokers.map((b) => `${b.nodeId}@${b.host}:${b.port}`).join(",");
      if (brokers !== this.lastBrokers) {
        this.log.info({ brokers: info.brokers, controllerId: info.controllerId }, "cluster brokers");
        this.lastBrokers = brokers;
      }
    }
    try {
      await recordPoll(this.deps.db, {
        clusterId: this.cluster.id,
        state: outcome.state,
        polledAt: new Date(started),
        durationMs: Date.now() - started,
        error: outcome.lastError,
        consecutiveFailures: outcome.consecutiveFailures,
        kafkaClusterId: info?.kafkaClusterId ?? null,
        controllerId: info?.controllerId ?? null,
        brokers: info?.brokers ?? [],
        collectorId: this.deps.collectorId,
      });
    } catch (e) {
      this.log.error({ error: describeError(e) }, "could not record poll outcome");
    }
    this.schedule(
      nextPollDelayMs(this.failures, {
        intervalMs: this.cluster.pollIntervalMs,
        maxBackoffMs: DEFAULT_MAX_BACKOFF_MS,
      }),
    );
  }

  private async connect(): Promise<Admin> {
    if (this.admin) return this.admin;
    const kafka = createKafka(connectionFromRow(this.cluster, this.deps.secretKey), this.deps.log);
    const admin = kafka.admin({ retry: { retries: 1, initialRetryTime: 200, maxRetryTime: 1000 } });
    await admin.connect();
    this.admin = admin;
    return admin;
  }

  private async disconnect(): Promise<void> {
    const admin = this.admin;
    this.admin = null;
    if (!admin) return;
    try {
      await admin.disconnect();
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
