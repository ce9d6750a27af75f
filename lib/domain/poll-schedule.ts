// When to poll a cluster next. A failing cluster backs off exponentially (capped) so an
// unreachable cluster costs little, and recovers to its normal interval after one success.

export interface PollScheduleConfig {
  intervalMs: number;
  maxBackoffMs: number;
}

export const DEFAULT_MAX_BACKOFF_MS = 60_000;

/** Delay before the next poll, given how many polls in a row have failed. */
export function nextPollDelayMs(consecutiveFailures: number, config: PollScheduleConfig): number {
  const { intervalMs, maxBackoffMs } = config;
  if (consecutiveFailures <= 0) return intervalMs;
  const cap = Math.max(intervalMs, maxBackoffMs);
  // 2^n growth, computed without overflow for large n.
  const exponent = Math.min(consecutiveFailures, 30);
  return Math.min(cap, intervalMs * 2 ** exponent);
}

export type ClusterHealth = "ok" | "error";

export interface PollOutcome {
  ok: boolean;
  error: string | null;
}

export interface ClusterStatusUpdate {
  state: ClusterHealth;
  consecutiveFailures: number;
  lastError: string | null;
}

/** Folds one poll outcome into the cluster's running status. */
export function foldPollOutcome(previousFailures: number, outcome: PollOutcome): ClusterStatusUpdate {
  if (outcome.ok) return { state: "ok", consecutiveFailures: 0, lastError: null };
  return {
    state: "error",
    consecutiveFailures: previousFailures + 1,
    lastError: truncate(outcome.error ?? "unknown error", 2000),
  };
}

export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
