import type { RetentionConfig } from "../config/retention";
import type { Cluster, PrismaClient } from "../db/client";
import { listEnabledClusters } from "../db/queries/clusters";
import { acquireLease, releaseLease } from "../db/queries/leases";
import type { Logger } from "../logger";
import { connectionFingerprint } from "./cluster-connection";
import type { AlertConfig } from "./alert-tracker";
import { ClusterWorker, describeError } from "./cluster-worker";

export interface CollectorOptions {
  db: PrismaClient;
  secretKey: Buffer;
  log: Logger;
  collectorId: string;
  configRefreshMs: number;
  /** How long a lease lives without renewal; another collector takes over after it. */
  leaseTtlMs: number;
  retention?: RetentionConfig;
  alerts?: AlertConfig;
}

// Keeps one worker per enabled cluster row that this collector holds the lease of. The table is
// re-read on an interval, so adding, editing, disabling or deleting a cluster takes effect
// without a restart; leases are renewed on the same beat, and a cluster whose lease expired
// (its owner died) is taken over by whichever collector gets there first.
export class Collector {
  private readonly workers = new Map<string, { worker: ClusterWorker; fingerprint: string }>();
  private timer: NodeJS.Timeout | null = null;
  private reconciling: Promise<void> | null = null;
  private stopped = false;

  constructor(private readonly opts: CollectorOptions) {}

  async start(): Promise<void> {
    await this.reconcile();
    this.loop();
  }

  get clusterIds(): string[] {
    return [...this.workers.keys()];
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.reconciling;
    await Promise.all(
      [...this.workers.entries()].map(async ([id, { worker }]) => {
        await worker.stop();
        // Hand the cluster over at once instead of after the lease expires.
        await releaseLease(this.opts.db, id, this.opts.collectorId).catch(() => undefined);
      }),
    );
    this.workers.clear();
  }

  private loop(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.reconciling = this.reconcile().finally(() => {
        this.reconciling = null;
        this.loop();
      });
    }, this.opts.configRefreshMs);
  }

  private async reconcile(): Promise<void> {
    let rows: Cluster[];
    try {
      rows = await listEnabledClusters(this.opts.db);
    } catch (e) {
      this.opts.log.error({ error: describeError(e) }, "cannot read cluster list; keeping current workers");
      return;
    }
    const wanted = new Map(rows.map((r) => [r.id, r]));
    for (const [id, entry] of this.workers) {
      const row = wanted.get(id);
      let reason: string | null = null;
      if (!row) reason = "cluster removed or disabled";
      else if (connectionFingerprint(row) !== entry.fingerprint) reason = "cluster connection changed";
      else if (!(await this.lease(id))) reason = "lease lost to another collector";
      if (reason) {
        this.workers.delete(id);
        await entry.worker.stop();
        if (!row || reason !== "lease lost to another collector") {
          await releaseLease(this.opts.db, id, this.opts.collectorId).catch(() => undefined);
        }
        this.opts.log.info({ clusterId: id }, reason);
      } else if (row) {
        entry.worker.update(row);
      }
    }
    for (const row of rows) {
      if (this.workers.has(row.id) || this.stopped) continue;
      if (!(await this.lease(row.id))) continue;
      const worker = new ClusterWorker(row, { ...this.opts, holdsLease: () => this.lease(row.id) });
      this.workers.set(row.id, { worker, fingerprint: connectionFingerprint(row) });
      this.opts.log.info({ cluster: row.name, bootstrap: row.brokers }, "watching cluster");
      worker.start();
    }
  }

  private async lease(clusterId: string): Promise<boolean> {
    try {
      return await acquireLease(this.opts.db, clusterId, this.opts.collectorId, this.opts.leaseTtlMs);
    } catch (e) {
      this.opts.log.error({ clusterId, error: describeError(e) }, "cannot renew lease");
      return false;
    }
  }
}
