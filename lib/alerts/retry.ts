// When to try a webhook again. Pure: the deliverer passes attempt numbers, responses and a
// random number in; the outbox applies the resulting delay with the database's clock.

export interface RetryPolicy {
  /** Delay after the first failed attempt; doubles per attempt. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Fraction of the delay that is random (0.2: between 80 % and 100 % of the nominal delay). */
  jitter: number;
  /** A notification still undelivered this long after it was enqueued is given up (failed). */
  maxAgeMs: number;
  /** Upper bound on a receiver's Retry-After. */
  retryAfterCapMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  baseDelayMs: 1000,
  maxDelayMs: 5 * 60_000,
  jitter: 0.2,
  maxAgeMs: 24 * 3600_000,
  retryAfterCapMs: 5 * 60_000,
};

export type ResponseClass = "delivered" | "retry" | "failed";

/** 2xx delivered; 408, 429 and 5xx retried; everything else (4xx, unfollowed 3xx) is final. */
export function classifyStatus(status: number): ResponseClass {
  if (status >= 200 && status < 300) return "delivered";
  if (status === 408 || status === 429 || (status >= 500 && status < 600)) return "retry";
  return "failed";
}

/** Delay before attempt `attempt + 1`, after `attempt` (1-based) failed. */
export function backoffDelayMs(attempt: number, policy: RetryPolicy, random: number): number {
  const exp = Math.min(Math.max(attempt - 1, 0), 40);
  const nominal = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** exp);
  return Math.round(nominal * (1 - policy.jitter * random));
}

/** Retry-After in ms: delta seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | null {
  if (!value) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  // An HTTP date names its month; Date.parse alone would also take "-5" as a year.
  const at = /[a-z]{3}/i.test(v) ? Date.parse(v) : Number.NaN;
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}

/** The wait before the next attempt: the backoff, or longer when the receiver asks (capped). */
export function retryDelayMs(
  attempt: number,
  retryAfterMs: number | null,
  policy: RetryPolicy,
  random: number,
): number {
  const backoff = backoffDelayMs(attempt, policy, random);
  if (retryAfterMs === null) return backoff;
  return Math.max(backoff, Math.min(retryAfterMs, policy.retryAfterCapMs));
}
