// How long each kind of data is kept (enforced by the collector, lib/db/queries/retention.ts).
// Durations are written like 90s, 30m, 6h, 7d, or plain milliseconds.

export interface RetentionConfig {
  /** Lag samples at poll resolution; older ones are rolled up into 1-minute buckets. */
  lagRawMs: number;
  /** 1-minute lag buckets; older ones are rolled up into 1-hour buckets. */
  lagMinuteMs: number;
  /** 1-hour lag buckets; older ones are deleted. */
  lagHourMs: number;
  /** Events, rebalance episodes, ended member sessions and state intervals. */
  timelineMs: number;
  /** Poll cycle records. */
  pollCyclesMs: number;
  /** Resolved incidents, and delivered or failed notifications with their attempts. */
  alertsMs: number;
}

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

export const DEFAULT_RETENTION: RetentionConfig = {
  lagRawMs: 3 * HOUR,
  lagMinuteMs: 3 * DAY,
  lagHourMs: 90 * DAY,
  timelineMs: 90 * DAY,
  pollCyclesMs: 7 * DAY,
  alertsMs: 90 * DAY,
};

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: MIN, h: HOUR, d: DAY, w: 7 * DAY };

/** "6h" → 21600000; throws a readable error on anything else. */
export function parseDuration(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)?\s*$/i.exec(text);
  if (!m) throw new Error(`"${text.slice(0, 40)}" is not a duration (use e.g. 90s, 30m, 6h, 7d)`);
  const ms = Number(m[1]) * (UNITS[(m[2] ?? "ms").toLowerCase()] ?? NaN);
  if (!Number.isFinite(ms) || ms <= 0) throw new Error(`"${text.slice(0, 40)}" must be positive`);
  return Math.round(ms);
}

/** The retention from GROUPWATCH_RETENTION_* variables; the tiers must be in order. */
export function retentionFrom(vars: Readonly<Record<string, unknown>>): RetentionConfig {
  const pick = (name: string, fallback: number) => {
    const v = vars[`GROUPWATCH_RETENTION_${name}`];
    if (typeof v !== "string" || v === "") return fallback;
    try {
      return parseDuration(v);
    } catch (e) {
      throw new Error(`GROUPWATCH_RETENTION_${name}: ${(e as Error).message}`, { cause: e });
    }
  };
  const cfg: RetentionConfig = {
    lagRawMs: pick("LAG_RAW", DEFAULT_RETENTION.lagRawMs),
    lagMinuteMs: pick("LAG_MINUTE", DEFAULT_RETENTION.lagMinuteMs),
    lagHourMs: pick("LAG_HOUR", DEFAULT_RETENTION.lagHourMs),
    timelineMs: pick("TIMELINE", DEFAULT_RETENTION.timelineMs),
    pollCyclesMs: pick("POLL_CYCLES", DEFAULT_RETENTION.pollCyclesMs),
    alertsMs: pick("ALERTS", DEFAULT_RETENTION.alertsMs),
  };
  if (!(cfg.lagRawMs <= cfg.lagMinuteMs && cfg.lagMinuteMs <= cfg.lagHourMs)) {
    throw new Error("GROUPWATCH_RETENTION_LAG_RAW <= _LAG_MINUTE <= _LAG_HOUR is required");
  }
  return cfg;
}
