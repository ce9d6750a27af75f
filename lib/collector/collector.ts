import type { Cluster, PrismaClient } from "../db/client";
import { listEnabledClusters } from "../db/queries/clusters";
import type { Logger } from "../logger";
import { connectionFingerprint } from "./cluster-connection";
import { ClusterWorker, describeError } from "./cluster-worker";

export interface CollectorOptions {
  db: PrismaClient;
  secretKey: Buffer;
  log: Logger;
  collectorId: string;
  configRefreshMs: number;
}

// Keeps one worker per enabled cluster row. The table is re-read on an interval, so adding,
// editing, disabling or deleting a cluster takes effect without a restart.
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
    await Promise.all([...this.workers.values()].map(({ worker }) => worker.stop()));
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
      if (!row || connectionFingerprint(row) !== entry.fingerprint) {
        this.workers.delete(id);
        await entry.worker.stop();
        this.opts.log.info(
          { clusterId: id },
          row ? "cluster connection changed" : "cluster removed or disabled",
        );
      } else {
        entry.worker.update(row);
      }
    }
    for (const row of rows) {
      if (this.workers.has(row.id) || this.stopped) continue;
      const worker = new ClusterWorker(row, this.opts);
      this.workers.set(row.id, { worker, fingerprint: connectionFingerprint(row) });
      this.opts.log.info({ cluster: row.name, bootstrap: row.brokers }, "watching cluster");
      worker.start();
    }
  }
}
