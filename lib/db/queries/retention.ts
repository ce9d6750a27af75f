import type { RetentionConfig } from "../../config/retention";
import type { PrismaClient } from "../client";
import { rollUpRawSamples, rollUpRollups } from "./lag";

// Enforces the retention of one cluster's data: raw lag → 1-minute buckets → 1-hour buckets →
// gone; timeline rows and poll cycles past their age are deleted. Only the collector holding the
// cluster's lease runs it, so two collectors never roll up the same rows.

export interface RetentionResult {
  rolledUpRaw: number;
  rolledUpMinutes: number;
  deleted: Record<string, number>;
}

export async function enforceRetention(
  db: PrismaClient,
  clusterId: string,
  cfg: RetentionConfig,
  now: Date,
): Promise<RetentionResult> {
  const ago = (ms: number) => new Date(now.getTime() - ms);
  const rolledUpRaw = await rollUpRawSamples(db, clusterId, ago(cfg.lagRawMs), 60);
  const rolledUpMinutes = await rollUpRollups(db, clusterId, ago(cfg.lagMinuteMs), 60, 3600);
  const lag = ago(cfg.lagHourMs);
  const tl = ago(cfg.timelineMs);
  const deleted: Record<string, number> = {
    lagHours: await db.$executeRaw`
      DELETE FROM lag_rollup WHERE cluster_id = ${clusterId}::uuid AND bucket_seconds = 3600 AND at < ${lag}`,
    events: await db.$executeRaw`
      DELETE FROM group_event WHERE cluster_id = ${clusterId}::uuid AND at < ${tl}`,
    episodes: await db.$executeRaw`
      DELETE FROM rebalance_episode WHERE cluster_id = ${clusterId}::uuid AND detected_at < ${tl}`,
    sessions: await db.$executeRaw`
      DELETE FROM member_session WHERE cluster_id = ${clusterId}::uuid AND left_at < ${tl}`,
    intervals: await db.$executeRaw`
      DELETE FROM group_state_interval WHERE cluster_id = ${clusterId}::uuid AND "to" < ${tl}`,
    pollCycles: await db.$executeRaw`
      DELETE FROM poll_cycle WHERE cluster_id = ${clusterId}::uuid AND started_at < ${ago(cfg.pollCyclesMs)}`,
    incidents: await db.$executeRaw`
      DELETE FROM incident WHERE cluster_id = ${clusterId}::uuid AND state = 'resolved'
        AND resolved_at < ${ago(cfg.alertsMs)}`,
  };
  return { rolledUpRaw, rolledUpMinutes, deleted };
}

/** Delivered or failed notifications (and their attempts) past the alerts retention. */
export async function enforceOutboxRetention(
  db: PrismaClient,
  cfg: RetentionConfig,
  now: Date,
): Promise<number> {
  const before = new Date(now.getTime() - cfg.alertsMs);
  return db.$executeRaw`
    DELETE FROM notification WHERE status <> 'pending' AND created_at < ${before}`;
}
