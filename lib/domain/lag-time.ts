// Lag in seconds (the Kafka Lag Exporter method, DOMAIN.md section 5). Each poll adds the
// partition's log end offset to a small per-partition table of (offset, first seen, last seen)
// points. The time the record at the committed offset was produced is interpolated between the
// last time the log end was still at or below it and the first time it was past it; lag in
// seconds = now - that time. Pure: points in, points and seconds out.
//
// Edge cases, each answered rather than guessed:
// - caught up (committed >= log end): 0 s.
// - idle topic (flat segment): a point's lastSeen moves on while the offset stands still, so a
//   record produced after a long pause is dated after the pause, not at its start.
// - committed offset older than the table: the record existed when the first point was taken,
//   so the lag is AT LEAST now - firstSeen of that point; reported with lowerBound = true.
// - log end went backwards (topic recreated, truncation): the table restarts.
// - no committed offset or no log end: unknown (null).

/** [offset as decimal string, firstSeenMs, lastSeenMs]; offsets strictly increasing. */
export type OffsetPoint = [offset: string, firstSeenMs: number, lastSeenMs: number];

/** Enough for hours of history at poll resolution near "now", coarser further back. */
export const DEFAULT_MAX_POINTS = 120;

/** Adds one observation of a partition's log end offset; returns the new table. */
export function observeLogEnd(
  points: readonly OffsetPoint[],
  logEnd: bigint,
  at: number,
  maxPoints = DEFAULT_MAX_POINTS,
): OffsetPoint[] {
  const last = points.at(-1);
  if (last) {
    const lastOffset = BigInt(last[0]);
    if (logEnd === lastOffset) {
      if (at <= last[2]) return [...points];
      return [...points.slice(0, -1), [last[0], last[1], at]];
    }
    if (logEnd < lastOffset) return [[logEnd.toString(), at, at]];
    if (at <= last[2]) return [...points]; // an out-of-order observation adds nothing
  }
  const next: OffsetPoint[] = [...points, [logEnd.toString(), at, at]];
  return next.length > maxPoints ? thin(next, maxPoints) : next;
}

/** Halves the resolution of the older half: recent lag stays precise, old lag approximate. */
function thin(points: OffsetPoint[], maxPoints: number): OffsetPoint[] {
  const half = Math.floor(points.length / 2);
  const older = points.slice(0, half).filter((_, i) => i % 2 === 0);
  const out = [...older, ...points.slice(half)];
  return out.length > maxPoints ? out.slice(out.length - maxPoints) : out;
}

export interface LagTime {
  /** Seconds since the record at the committed offset was produced; null when unknown. */
  seconds: number | null;
  /** True when the committed offset predates the table: the lag is at least `seconds`. */
  lowerBound: boolean;
}

const UNKNOWN: LagTime = { seconds: null, lowerBound: false };

export function lagSeconds(
  points: readonly OffsetPoint[],
  committed: bigint | null,
  logEnd: bigint | null,
  now: number,
): LagTime {
  if (committed === null || logEnd === null) return UNKNOWN;
  if (committed >= logEnd) return { seconds: 0, lowerBound: false };
  if (points.length === 0) return UNKNOWN;
  // First point whose offset is past the committed one: the record was produced by then.
  const i = points.findIndex((p) => BigInt(p[0]) > committed);
  const newest = points[points.length - 1];
  if (i === -1 && newest) {
    // The table has not seen the log end pass the committed offset (it is behind the log end
    // read this cycle but the table was not updated): the record is at most a poll old.
    return { seconds: Math.max(0, (now - newest[2]) / 1000), lowerBound: true };
  }
  const after = points[i];
  const before = points[i - 1];
  if (!after) return UNKNOWN;
  if (!before) return { seconds: Math.max(0, (now - after[1]) / 1000), lowerBound: true };
  const o0 = BigInt(before[0]);
  const o1 = BigInt(after[0]);
  const t0 = before[2];
  const t1 = after[1];
  // The records o0 .. o1-1 were appended in (t0, t1]; record `committed` is the
  // (committed - o0 + 1)-th of them.
  const fraction = Number(committed - o0 + 1n) / Number(o1 - o0);
  const produced = t0 + fraction * (t1 - t0);
  return { seconds: Math.max(0, (now - produced) / 1000), lowerBound: false };
}
