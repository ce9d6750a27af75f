import type { PrismaClient } from "../db/client";
import { groupKey } from "../db/queries/groups";
import {
  deleteOffsetTables,
  insertLagSamples,
  loadOffsetTables,
  partitionKey,
  saveOffsetTables,
  type LagSampleRow,
  type OffsetTables,
} from "../db/queries/lag";
import { lagSignature, shouldWriteSample, type LastWritten } from "../domain/lag-history";
import { lagSeconds, observeLogEnd, type LagTime } from "../domain/lag-time";
import type { ClusterSnapshot } from "../domain/snapshot";

// Lag in seconds and lag history for one cluster. Each cycle: the log end offsets extend the
// per-partition offset tables, every group's partitions get a lag in seconds, and groups whose
// lag changed get a history row (one insert for all of them). The offset tables are saved every
// SAVE_EVERY_MS so a restarted collector (or the one taking the cluster over) keeps them.

const SAVE_EVERY_MS = 60_000;

export interface GroupLagTime {
  /** Max over the group's partitions; null when none is known. */
  seconds: number | null;
  /** True when the max is only a lower bound (committed offset older than the table). */
  lowerBound: boolean;
  /** By partitionKey(topic, partition). */
  partitions: Map<string, LagTime>;
}

export class LagTracker {
  private tables: OffsetTables | null = null;
  private readonly dirty = new Set<string>();
  private readonly lastWritten = new Map<string, LastWritten>();
  private savedAt = 0;

  constructor(
    private readonly db: PrismaClient,
    private readonly clusterId: string,
  ) {}

  /** Extends the offset tables with this cycle's log ends and computes each group's lag in seconds. */
  async observe(snapshot: ClusterSnapshot): Promise<Map<string, GroupLagTime>> {
    this.tables ??= await loadOffsetTables(this.db, this.clusterId);
    const tables = this.tables;
    const at = snapshot.poll.startedAt.getTime();
    const seen = new Set<string>();
    for (const t of snapshot.topics) {
      if (t.internal) continue;
      for (const p of t.partitions) {
        if (p.logEndOffset === null) continue;
        const key = partitionKey(t.name, p.partition);
        seen.add(key);
        const before = tables.get(key) ?? [];
        const after = observeLogEnd(before, p.logEndOffset, at);
        tables.set(key, after);
        this.dirty.add(key);
      }
    }
    // Partitions of deleted topics: forget them (a recreated topic starts a new table).
    const topics = new Set(snapshot.topics.map((t) => t.name));
    const gone = [...tables.keys()].filter((k) => !seen.has(k) && !topics.has(splitKey(k).topic));
    for (const k of gone) tables.delete(k);
    if (gone.length > 0) {
      await deleteOffsetTables(
        this.db,
        this.clusterId,
        gone.map((k) => splitKey(k)),
      );
    }

    const out = new Map<string, GroupLagTime>();
    for (const g of snapshot.groups) {
      const partitions = new Map<string, LagTime>();
      let seconds: number | null = null;
      let lowerBound = false;
      for (const p of g.lag.partitions) {
        const key = partitionKey(p.topic, p.partition);
        const lt = lagSeconds(tables.get(key) ?? [], p.committedOffset, p.logEndOffset, at);
        partitions.set(key, lt);
        if (lt.seconds !== null && (seconds === null || lt.seconds > seconds)) {
          seconds = lt.seconds;
          lowerBound = lt.lowerBound;
        }
      }
      out.set(g.groupId, { seconds, lowerBound, partitions });
    }
    return out;
  }

  /** Writes history rows for the groups whose lag changed, and the offset tables when due. */
  async record(snapshot: ClusterSnapshot, times: Map<string, GroupLagTime>): Promise<number> {
    const at = snapshot.poll.startedAt.getTime();
    const rows: LagSampleRow[] = [];
    const written: [string, LastWritten][] = [];
    for (const g of snapshot.groups) {
      const key = groupKey(g.groupId);
      const time = times.get(g.groupId);
      const next = { at, signature: lagSignature(g.lag), lagSeconds: time?.seconds ?? null };
      if (!shouldWriteSample(this.lastWritten.get(key) ?? null, next)) continue;
      written.push([key, next]);
      rows.push({
        groupKey: key,
        totalLag: g.lag.total,
        maxLag: g.lag.max,
        lagSeconds: round(time?.seconds ?? null),
        unknownPartitions: g.lag.unknownPartitions,
        partitions: g.lag.partitions.map((p) => [
          p.topic,
          p.partition,
          p.committedOffset?.toString() ?? null,
          p.logEndOffset?.toString() ?? null,
          p.lag?.toString() ?? null,
          round(time?.partitions.get(partitionKey(p.topic, p.partition))?.seconds ?? null),
        ]),
      });
    }
    await insertLagSamples(this.db, this.clusterId, snapshot.poll.startedAt, rows);
    for (const [k, v] of written) this.lastWritten.set(k, v);
    const present = new Set(snapshot.groups.map((g) => groupKey(g.groupId)));
    for (const k of this.lastWritten.keys()) if (!present.has(k)) this.lastWritten.delete(k);

    if (at - this.savedAt >= SAVE_EVERY_MS) await this.flush(at);
    return rows.length;
  }

  /** Saves the offset tables that changed since the last save (also on a graceful stop). */
  async flush(at = Date.now()): Promise<void> {
    const tables = this.tables;
    if (!tables || this.dirty.size === 0) return;
    const save = [...this.dirty]
      .filter((k) => tables.has(k))
      .map((k) => ({ ...splitKey(k), points: tables.get(k) ?? [] }));
    await saveOffsetTables(this.db, this.clusterId, new Date(at), save);
    this.dirty.clear();
    this.savedAt = at;
  }
}

function splitKey(key: string): { topic: string; partition: number } {
  const i = key.lastIndexOf(":");
  return { topic: key.slice(0, i), partition: Number(key.slice(i + 1)) };
}

const round = (v: number | null) => (v === null ? null : Math.round(v * 1000) / 1000);
