// Lag history on a step grid, from the two stores the collector keeps: raw change-only samples
// (recent) and downsampled rollup buckets (older). Pure: rows in, points out.
//
// - A sample's value holds until the next sample (change-only storage), so a step's value is
//   the max of the value in effect at its start and every sample inside it; an empty step
//   carries the last value forward, for at most maxGapMs after it was seen (then the data is
//   missing, not unchanged: collector down, group gone) and never before the first sample.
// - Finer data wins: a rollup bucket is used only before the first row of every finer store,
//   so a bucket covered by raw samples is ignored.
// - A rollup bucket only knows maxima: every step it overlaps gets its maxima.

export interface PartitionLagValue {
  lag: bigint | null;
  lagSeconds: number | null;
}

/** One lag_sample row. Partitions keyed "topic\u0000partition". */
export interface RawLagSample {
  at: number;
  totalLag: bigint;
  maxLag: bigint | null;
  lagSeconds: number | null;
  partitions?: Map<string, PartitionLagValue>;
}

/** One lag_rollup row: [at, at + bucketMs). */
export interface LagRollupBucket {
  at: number;
  bucketMs: number;
  samples: number;
  totalLagMax: bigint;
  totalLagLast: bigint;
  maxLag: bigint | null;
  lagSecondsMax: number | null;
  partitions?: Map<string, PartitionLagValue>;
}

export interface LagPoint {
  /** Start of the step (epoch ms). */
  at: number;
  /** Max total lag in the step; null where no data is known. */
  totalLag: bigint | null;
  maxLag: bigint | null;
  lagSeconds: number | null;
  /** Stored samples inside the step (0 for a carried-forward step). */
  samples: number;
}

export interface PartitionSeries {
  topic: string;
  partition: number;
  /** Aligned with the points. */
  lag: (bigint | null)[];
  lagSeconds: (number | null)[];
}

export interface LagSeriesOptions {
  from: number;
  to: number;
  stepMs: number;
  /** Steps starting after now are left out (nothing is known about them). */
  now?: number;
  /** How long a value is carried forward after it was last seen. */
  maxGapMs?: number;
  partitions?: boolean;
  /** Cap on partition series. */
  maxPartitions?: number;
}

export interface LagSeries {
  points: LagPoint[];
  partitions?: PartitionSeries[];
  partitionsTruncated?: boolean;
}

/** The collector writes a heartbeat sample at least every 5 min; twice that means a gap. */
export const DEFAULT_MAX_GAP_MS = 10 * 60_000;
export const MAX_POINTS = 5_000;
export const TARGET_POINTS = 500;

const NICE_STEPS_S = [
  1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10_800, 21_600, 43_200, 86_400,
];

/** The smallest round step giving at most TARGET_POINTS points over the span. */
export function defaultStepMs(spanMs: number): number {
  const want = spanMs / TARGET_POINTS;
  const nice = NICE_STEPS_S.find((s) => s * 1000 >= want);
  return nice !== undefined ? nice * 1000 : Math.ceil(want / 86_400_000) * 86_400_000;
}

/** Steps are aligned to multiples of the step (epoch), so refreshes keep the same buckets. */
export function gridStart(from: number, stepMs: number): number {
  return Math.floor(from / stepMs) * stepMs;
}

export function pointCount(from: number, to: number, stepMs: number): number {
  return Math.max(0, Math.ceil((to - gridStart(from, stepMs)) / stepMs));
}

interface Obs {
  start: number;
  /** Raw: the sample time; rollup: the bucket end (exclusive). */
  end: number;
  raw: boolean;
  samples: number;
  totalMax: bigint;
  totalLast: bigint;
  maxLag: bigint | null;
  lagSeconds: number | null;
  partitions: Map<string, PartitionLagValue> | undefined;
  counted: boolean;
}

const maxBig = (a: bigint | null, b: bigint | null) => (a === null ? b : b === null ? a : a > b ? a : b);
const maxNum = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));

/** Keeps only rollup buckets that start before the first row of every finer store. */
export function selectRollups(raw: RawLagSample[], rollups: LagRollupBucket[]): LagRollupBucket[] {
  let covered = raw.reduce((m, s) => Math.min(m, s.at), Infinity);
  const sizes = [...new Set(rollups.map((r) => r.bucketMs))].sort((a, b) => a - b);
  const kept: LagRollupBucket[] = [];
  for (const size of sizes) {
    const tier = rollups.filter((r) => r.bucketMs === size);
    kept.push(...tier.filter((r) => r.at < covered));
    covered = Math.min(covered, ...tier.map((r) => r.at));
  }
  return kept;
}

function observations(raw: RawLagSample[], rollups: LagRollupBucket[]): Obs[] {
  const obs: Obs[] = [
    ...selectRollups(raw, rollups).map((r): Obs => ({
      start: r.at,
      end: r.at + r.bucketMs,
      raw: false,
      samples: r.samples,
      totalMax: r.totalLagMax,
      totalLast: r.totalLagLast,
      maxLag: r.maxLag,
      lagSeconds: r.lagSecondsMax,
      partitions: r.partitions,
      counted: false,
    })),
    ...raw.map((s): Obs => ({
      start: s.at,
      end: s.at,
      raw: true,
      samples: 1,
      totalMax: s.totalLag,
      totalLast: s.totalLag,
      maxLag: s.maxLag,
      lagSeconds: s.lagSeconds,
      partitions: s.partitions,
      counted: false,
    })),
  ];
  return obs.sort((a, b) => a.start - b.start || Number(a.raw) - Number(b.raw));
}

/** The later of two carry candidates (by when they were last true); raw wins a tie. */
const later = (a: Obs | null, b: Obs) => (a === null || b.end > a.end || (b.end === a.end && b.raw) ? b : a);

function splitKey(key: string): { topic: string; partition: number } {
  const i = key.lastIndexOf("\u0000");
  return { topic: key.slice(0, i), partition: Number(key.slice(i + 1)) };
}

export function buildLagSeries(
  raw: RawLagSample[],
  rollups: LagRollupBucket[],
  opts: LagSeriesOptions,
): LagSeries {
  const { from, to, stepMs, now = Infinity, maxGapMs = DEFAULT_MAX_GAP_MS } = opts;
  if (!(stepMs >= 1)) throw new Error("stepMs must be positive");
  const obs = observations(raw, rollups);
  const withPartitions = opts.partitions === true;
  const keys = new Set<string>();
  if (withPartitions) for (const o of obs) for (const k of o.partitions?.keys() ?? []) keys.add(k);
  const maxPartitions = opts.maxPartitions ?? 1000;
  const partitionKeys = [...keys]
    .map((k) => ({ k, ...splitKey(k) }))
    .sort((a, b) => (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition));
  const shownKeys = partitionKeys.slice(0, maxPartitions);
  const series: PartitionSeries[] = shownKeys.map(({ topic, partition }) => ({
    topic,
    partition,
    lag: [],
    lagSeconds: [],
  }));

  const points: LagPoint[] = [];
  let next = 0;
  let pending: Obs[] = [];
  let latest: Obs | null = null;
  const end = Math.min(to, now + 1);
  for (let s = gridStart(from, stepMs); s < end; s += stepMs) {
    const e = s + stepMs;
    while (next < obs.length && obs[next]!.start < e) pending.push(obs[next++]!);
    // What ended before the step is the carry candidate; what remains overlaps the step.
    const inside: Obs[] = [];
    for (const o of pending) {
      const done = o.raw ? o.end < s : o.end <= s;
      if (done) latest = later(latest, o);
      else inside.push(o);
    }
    pending = inside;
    // The carried value holds from the step's start until the first observation inside it.
    const fresh = latest !== null && s - latest.end <= maxGapMs ? latest : null;
    const carry = fresh !== null && !inside.some((o) => o.start <= s) ? fresh : null;
    if (fresh === null && inside.length === 0 && points.length === 0) continue;

    let totalLag: bigint | null = carry?.totalLast ?? null;
    let maxLag: bigint | null = carry?.maxLag ?? null;
    let lagSeconds: number | null = carry?.lagSeconds ?? null;
    let samples = 0;
    for (const o of inside) {
      totalLag = maxBig(totalLag, o.totalMax);
      maxLag = maxBig(maxLag, o.maxLag);
      lagSeconds = maxNum(lagSeconds, o.lagSeconds);
      if (!o.counted) {
        samples += o.samples;
        o.counted = true;
      }
    }
    points.push({ at: s, totalLag, maxLag, lagSeconds, samples });

    shownKeys.forEach(({ k }, i) => {
      let lag: bigint | null = carry?.partitions?.get(k)?.lag ?? null;
      let secs: number | null = carry?.partitions?.get(k)?.lagSeconds ?? null;
      for (const o of inside) {
        const v = o.partitions?.get(k);
        if (v) {
          lag = maxBig(lag, v.lag);
          secs = maxNum(secs, v.lagSeconds);
        }
      }
      series[i]!.lag.push(lag);
      series[i]!.lagSeconds.push(secs);
    });
  }
  if (!withPartitions) return { points };
  return { points, partitions: series, partitionsTruncated: partitionKeys.length > shownKeys.length };
}
