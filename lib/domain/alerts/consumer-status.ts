// Burrow-style consumer status (DOMAIN.md §5), evaluated from what each poll sees.
//
// Burrow reads every commit from __consumer_offsets; we only see the committed offset at poll
// times and Kafka does not say when it was committed. So a window entry is recorded when the
// committed offset changed, or when the partition is assigned to a live member (`assigned`):
// a live consumer keeps committing its position even when it does not move (auto-commit does),
// which is what lets STALL (alive, not progressing) be told apart from STOP (no one commits).
// Without `assigned` a stuck consumer shows as STOP once the window span has passed.
//
// Per partition, in this order:
//   unknown  no committed offset, or no lag known
//   unknown  the committed offset is ahead of the log end for a second poll, or the log end
//            went backwards (topic recreated or truncated; the window restarts)
//   OK       current lag <= allowedLag
//   STOP     now - last commit > max(window span, minStopMs), lag > allowed
//   unknown  fewer than minWindowEntries commits in the window
//   REWIND   an offset in the window is lower than the one before it
//   OK       some commit in the window had lag <= allowedLag
//   STALL    every commit in the window has the same offset
//   WARN     lag never decreased across the window and grew overall
//   OK       otherwise
// Group status = worst partition status, ranked OK < WARN < REWIND < STALL < STOP: STOP means
// nothing consumes, STALL a live consumer that cannot progress, REWIND is often an operator's
// deliberate reset. "unknown" ranks between OK and WARN for the group: it never hides a known
// problem, but a group with only OK and unknown partitions is unknown, not OK.

export type ConsumerStatus = "OK" | "WARN" | "REWIND" | "STALL" | "STOP" | "unknown";
export type Status = ConsumerStatus;
export type KnownStatus = Exclude<ConsumerStatus, "unknown">;

/** Severity order of the known statuses, least severe first. */
export const STATUS_ORDER: readonly KnownStatus[] = ["OK", "WARN", "REWIND", "STALL", "STOP"];

/** Rank for comparisons: OK 0, unknown 0.5, WARN 1, REWIND 2, STALL 3, STOP 4. */
export function statusRank(s: ConsumerStatus): number {
  return s === "unknown" ? 0.5 : STATUS_ORDER.indexOf(s);
}

export interface ConsumerStatusConfig {
  /** Commits kept per partition (Burrow's window, default 10). */
  windowSize: number;
  /** Fewer commits than this (and lag above allowance) is "unknown" (default 2). */
  minWindowEntries: number;
  /** Lag still counted as caught up, in offsets (default 0). */
  allowedLag: number;
  /** STOP needs at least this long without a commit, even when the window span is shorter. */
  minStopMs: number;
}

export const DEFAULT_CONSUMER_STATUS_CONFIG: ConsumerStatusConfig = {
  windowSize: 10,
  minWindowEntries: 2,
  allowedLag: 0,
  minStopMs: 300_000,
};

export interface CommitEntry {
  at: number;
  /** Decimal strings: int64 offsets do not fit a JSON number. */
  offset: string;
  lag: string;
}

export interface PartitionWindow {
  topic: string;
  partition: number;
  /** Oldest first, at most windowSize. */
  entries: CommitEntry[];
  /** The log-end offset last seen (decimal), to notice a recreated or truncated topic. */
  lastLogEnd: string | null;
  /** First poll that saw the committed offset ahead of the log end; null when it is not. */
  aheadSince: number | null;
}

/** JSON-serializable: persisted between cycles (consumer_status_window.window). */
export interface ConsumerStatusState {
  version: 1;
  at: number;
  partitions: PartitionWindow[];
}

export interface PartitionInput {
  topic: string;
  partition: number;
  committedOffset: string | null;
  logEndOffset: string | null;
  lag: string | null;
  /** The partition is assigned to a live member of the group (so it is being committed). */
  assigned?: boolean;
}

export interface ConsumerStatusInput {
  at: number;
  partitions: PartitionInput[];
}

export interface PartitionStatus {
  topic: string;
  partition: number;
  status: ConsumerStatus;
  /** Why, in one line. */
  reason: string;
  committedOffset: string | null;
  logEndOffset: string | null;
  lag: string | null;
  /** Time of the latest commit in the window, null when none. */
  lastCommitAt: number | null;
  windowEntries: number;
}

export interface ConsumerStatusResult {
  state: ConsumerStatusState;
  group: ConsumerStatus;
  partitions: PartitionStatus[];
}

const DECIMAL = /^-?\d+$/;

/** BigInt of a decimal string; null for null or anything else (never throws). */
export function toBigOrNull(s: string | null | undefined): bigint | null {
  return s != null && DECIMAL.test(s) ? BigInt(s) : null;
}

const key = (topic: string, partition: number) => `${topic}\u0000${partition}`;

export function updateConsumerStatus(
  prev: ConsumerStatusState | null,
  input: ConsumerStatusInput,
  cfg: ConsumerStatusConfig = DEFAULT_CONSUMER_STATUS_CONFIG,
): ConsumerStatusResult {
  const prevWindows = new Map<string, PartitionWindow>();
  for (const w of prev?.partitions ?? []) prevWindows.set(key(w.topic, w.partition), w);

  const seen = new Set<string>();
  const windows: PartitionWindow[] = [];
  const statuses: PartitionStatus[] = [];
  for (const p of input.partitions) {
    const k = key(p.topic, p.partition);
    if (seen.has(k)) continue;
    seen.add(k);
    const { window, status } = evaluatePartition(prevWindows.get(k) ?? null, p, input.at, cfg);
    windows.push(window);
    statuses.push(status);
  }
  const byTp = (a: { topic: string; partition: number }, b: { topic: string; partition: number }) =>
    a.topic === b.topic ? a.partition - b.partition : a.topic < b.topic ? -1 : 1;
  windows.sort(byTp);
  statuses.sort(byTp);
  return {
    state: { version: 1, at: input.at, partitions: windows },
    group: groupStatus(statuses.map((s) => s.status)),
    partitions: statuses,
  };
}

/** Worst known status; "unknown" when there are none worse than OK but some are unknown (or
 *  there are no partitions at all). */
export function groupStatus(statuses: readonly ConsumerStatus[]): ConsumerStatus {
  if (statuses.length === 0) return "unknown";
  let worst: ConsumerStatus = "OK";
  for (const s of statuses) if (statusRank(s) > statusRank(worst)) worst = s;
  return worst;
}

function evaluatePartition(
  prev: PartitionWindow | null,
  p: PartitionInput,
  at: number,
  cfg: ConsumerStatusConfig,
): { window: PartitionWindow; status: PartitionStatus } {
  const committed = toBigOrNull(p.committedOffset);
  const logEnd = toBigOrNull(p.logEndOffset);
  const prevLogEnd = toBigOrNull(prev?.lastLogEnd);
  let lag = toBigOrNull(p.lag);
  if (lag === null && committed !== null && logEnd !== null)
    lag = logEnd > committed ? logEnd - committed : 0n;
  const allowed = BigInt(Math.max(0, Math.trunc(cfg.allowedLag)));

  const logEndWentBack = logEnd !== null && prevLogEnd !== null && logEnd < prevLogEnd;
  let entries = logEndWentBack || committed === null ? [] : [...(prev?.entries ?? [])];
  const ahead = committed !== null && logEnd !== null && committed > logEnd;
  const aheadSince = ahead ? (prev?.aheadSince ?? at) : null;

  if (committed !== null && lag !== null) {
    const last = entries.at(-1);
    const changed = last === undefined || toBigOrNull(last.offset) !== committed;
    if (changed || p.assigned === true) {
      entries.push({ at, offset: committed.toString(), lag: lag.toString() });
      if (entries.length > cfg.windowSize) entries = entries.slice(entries.length - cfg.windowSize);
    }
  }

  const window: PartitionWindow = {
    topic: p.topic,
    partition: p.partition,
    entries,
    lastLogEnd: logEnd?.toString() ?? prev?.lastLogEnd ?? null,
    aheadSince,
  };
  const out = (
    status: ConsumerStatus,
    reason: string,
  ): { window: PartitionWindow; status: PartitionStatus } => ({
    window,
    status: {
      topic: p.topic,
      partition: p.partition,
      status,
      reason,
      committedOffset: committed?.toString() ?? null,
      logEndOffset: logEnd?.toString() ?? null,
      lag: lag?.toString() ?? null,
      lastCommitAt: entries.at(-1)?.at ?? null,
      windowEntries: entries.length,
    },
  });

  if (committed === null) return out("unknown", "no committed offset");
  if (lag === null) return out("unknown", "lag unknown (no log-end offset)");
  if (logEndWentBack) {
    return out(
      "unknown",
      `log-end offset went back from ${prevLogEnd} to ${logEnd}: topic recreated or truncated`,
    );
  }
  // One poll ahead is the usual race (log end read before a fresh commit); two is not.
  if (ahead && aheadSince !== null && aheadSince < at) {
    return out("unknown", `committed offset ${committed} is ahead of log-end offset ${logEnd}`);
  }
  if (lag <= allowed) return out("OK", `lag ${lag} within allowance ${allowed}`);

  const first = entries[0];
  const last = entries.at(-1);
  if (first !== undefined && last !== undefined) {
    const span = last.at - first.at;
    const since = at - last.at;
    const threshold = Math.max(span, cfg.minStopMs);
    if (since > threshold) {
      return out("STOP", `no commit for ${since} ms (> ${threshold} ms) with lag ${lag}`);
    }
  }
  if (entries.length < cfg.minWindowEntries) {
    return out("unknown", `${entries.length} commit(s) observed, ${cfg.minWindowEntries} needed`);
  }
  const offsets = entries.map((e) => BigInt(e.offset));
  const lags = entries.map((e) => BigInt(e.lag));
  for (let i = 1; i < offsets.length; i++) {
    if (offsets[i]! < offsets[i - 1]!) {
      return out("REWIND", `committed offset went back from ${offsets[i - 1]} to ${offsets[i]}`);
    }
  }
  if (lags.some((l) => l <= allowed)) return out("OK", "caught up within the window");
  if (offsets.every((o) => o === offsets[0])) {
    return out(
      "STALL",
      `committed offset stuck at ${offsets[0]} over ${entries.length} commits with lag ${lag}`,
    );
  }
  let neverDecreased = true;
  for (let i = 1; i < lags.length; i++) if (lags[i]! < lags[i - 1]!) neverDecreased = false;
  if (neverDecreased && lags.at(-1)! > lags[0]!) {
    return out("WARN", `lag grew from ${lags[0]} to ${lags.at(-1)} over ${entries.length} commits`);
  }
  return out("OK", "consuming");
}
