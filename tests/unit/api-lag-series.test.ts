import { describe, expect, it } from "vitest";

import {
  buildLagSeries,
  defaultStepMs,
  gridStart,
  selectRollups,
  type LagRollupBucket,
  type PartitionLagValue,
  type RawLagSample,
} from "../../lib/api/lag-series";

const T0 = Date.parse("2026-11-30T10:00:00Z");
const S = 1000;
const MIN = 60 * S;

const raw = (atS: number, total: number, extra: Partial<RawLagSample> = {}): RawLagSample => ({
  at: T0 + atS * S,
  totalLag: BigInt(total),
  maxLag: BigInt(total),
  lagSeconds: total / 10,
  ...extra,
});

const bucket = (atS: number, sizeS: number, max: number, last: number, samples = 3): LagRollupBucket => ({
  at: T0 + atS * S,
  bucketMs: sizeS * S,
  samples,
  totalLagMax: BigInt(max),
  totalLagLast: BigInt(last),
  maxLag: BigInt(max),
  lagSecondsMax: max / 10,
});

/** [offset s, totalLag or null, samples] for compact expectations. */
const compact = (points: ReturnType<typeof buildLagSeries>["points"]) =>
  points.map((p) => [(p.at - T0) / S, p.totalLag === null ? null : Number(p.totalLag), p.samples]);

describe("buildLagSeries", () => {
  it.each([
    {
      label: "no data: no points",
      raw: [],
      rollups: [],
      opts: { fromS: 0, toS: 60, stepS: 10 },
      expected: [],
    },
    {
      label: "never before the first sample, carried forward after it",
      raw: [raw(25, 7)],
      rollups: [],
      opts: { fromS: 0, toS: 60, stepS: 10 },
      expected: [
        [20, 7, 1],
        [30, 7, 0],
        [40, 7, 0],
        [50, 7, 0],
      ],
    },
    {
      label: "change-only storage: a value holds until the next sample",
      raw: [raw(0, 100), raw(30, 200)],
      rollups: [],
      opts: { fromS: 0, toS: 50, stepS: 10 },
      expected: [
        [0, 100, 1],
        [10, 100, 0],
        [20, 100, 0],
        [30, 200, 1],
        [40, 200, 0],
      ],
    },
    {
      label: "a step's max includes the value in effect at its start",
      raw: [raw(0, 500), raw(15, 100)],
      rollups: [],
      opts: { fromS: 0, toS: 30, stepS: 10 },
      expected: [
        [0, 500, 1],
        [10, 500, 1],
        [20, 100, 0],
      ],
    },
    {
      label: "several samples in a step: the max, all counted",
      raw: [raw(1, 5), raw(2, 9), raw(3, 4)],
      rollups: [],
      opts: { fromS: 0, toS: 20, stepS: 10 },
      expected: [
        [0, 9, 3],
        [10, 4, 0],
      ],
    },
    {
      label: "a sample before the window seeds the first step",
      raw: [raw(-120, 42)],
      rollups: [],
      opts: { fromS: 0, toS: 20, stepS: 10 },
      expected: [
        [0, 42, 0],
        [10, 42, 0],
      ],
    },
    {
      label: "no carry beyond the gap limit (collector down, group gone): null points",
      raw: [raw(0, 3)],
      rollups: [],
      opts: { fromS: 0, toS: 40, stepS: 10, maxGapS: 15 },
      expected: [
        [0, 3, 1],
        [10, 3, 0],
        [20, null, 0],
        [30, null, 0],
      ],
    },
    {
      label: "a seed older than the gap limit is not carried",
      raw: [raw(-1000, 42), raw(25, 1)],
      rollups: [],
      opts: { fromS: 0, toS: 30, stepS: 10, maxGapS: 600 },
      expected: [[20, 1, 1]],
    },
    {
      label: "nothing after now",
      raw: [raw(0, 3)],
      rollups: [],
      opts: { fromS: 0, toS: 60, stepS: 10, nowS: 25 },
      expected: [
        [0, 3, 1],
        [10, 3, 0],
        [20, 3, 0],
      ],
    },
    {
      label: "the grid is aligned to the step, not to from",
      raw: [raw(0, 3)],
      rollups: [],
      opts: { fromS: 5, toS: 25, stepS: 10 },
      expected: [
        [0, 3, 1],
        [10, 3, 0],
        [20, 3, 0],
      ],
    },
    {
      label: "rollups before the raw window, raw after it",
      raw: [raw(120, 10), raw(130, 20)],
      rollups: [bucket(0, 60, 90, 30), bucket(60, 60, 50, 40)],
      opts: { fromS: 0, toS: 180, stepS: 60 },
      expected: [
        [0, 90, 3],
        [60, 50, 3],
        [120, 20, 2], // the sample at 120 s says what the lag was then
      ],
    },
    {
      label: "a bucket also covered by raw samples is ignored (raw wins)",
      raw: [raw(0, 10), raw(70, 20)],
      rollups: [bucket(0, 60, 999, 999), bucket(60, 60, 888, 888)],
      opts: { fromS: 0, toS: 120, stepS: 60 },
      expected: [
        [0, 10, 1],
        [60, 20, 1],
      ],
    },
    {
      label: "a missing minute bucket (no change that minute) carries the last value",
      raw: [],
      rollups: [bucket(0, 60, 900, 300, 2), bucket(180, 60, 310, 310, 1)],
      opts: { fromS: 0, toS: 240, stepS: 60 },
      expected: [
        [0, 900, 2],
        [60, 300, 0],
        [120, 300, 0],
        [180, 310, 1],
      ],
    },
    {
      label: "steps finer than a bucket each get its max, its samples once",
      raw: [],
      rollups: [bucket(0, 60, 70, 50, 6)],
      opts: { fromS: 0, toS: 80, stepS: 20, maxGapS: 10 },
      expected: [
        [0, 70, 6],
        [20, 70, 0],
        [40, 70, 0],
        [60, 50, 0],
      ],
    },
    {
      label: "steps coarser than buckets: the max over the buckets inside",
      raw: [],
      rollups: [bucket(0, 60, 5, 5, 1), bucket(60, 60, 8, 2, 1), bucket(120, 60, 3, 3, 1)],
      opts: { fromS: 0, toS: 180, stepS: 120 },
      expected: [
        [0, 8, 2],
        [120, 3, 1],
      ],
    },
  ])("$label", ({ raw: r, rollups, opts, expected }) => {
    const series = buildLagSeries(r, rollups, {
      from: T0 + opts.fromS * S,
      to: T0 + opts.toS * S,
      stepMs: opts.stepS * S,
      ...("nowS" in opts && opts.nowS !== undefined ? { now: T0 + opts.nowS * S } : {}),
      ...("maxGapS" in opts && opts.maxGapS !== undefined ? { maxGapMs: opts.maxGapS * S } : {}),
    });
    expect(compact(series.points)).toEqual(expected);
  });

  it("maxLag and lagSeconds are maxima that ignore unknowns", () => {
    const { points } = buildLagSeries(
      [
        raw(0, 10, { maxLag: null, lagSeconds: null }),
        raw(1, 10, { maxLag: 4n, lagSeconds: 2.5 }),
        raw(2, 10, { maxLag: 3n, lagSeconds: null }),
      ],
      [],
      { from: T0, to: T0 + 10 * S, stepMs: 10 * S },
    );
    expect(points).toEqual([{ at: T0, totalLag: 10n, maxLag: 4n, lagSeconds: 2.5, samples: 3 }]);
  });

  it("offsets beyond 2^53 keep their precision", () => {
    const big = 2n ** 62n + 1n;
    const { points } = buildLagSeries([raw(0, 0, { totalLag: big })], [], {
      from: T0,
      to: T0 + S,
      stepMs: S,
    });
    expect(points[0]?.totalLag).toBe(big);
  });

  it("per-partition series: aligned with the points, carried, from raw and rollups", () => {
    const parts = (entries: [string, number, number | null][]) =>
      new Map<string, PartitionLagValue>(
        entries.map(([t, p, lag]) => [
          `${t}\u0000${p}`,
          { lag: lag === null ? null : BigInt(lag), lagSeconds: null },
        ]),
      );
    const rollup = { ...bucket(0, 60, 9, 9), partitions: parts([["t", 0, 9]]) };
    const { points, partitions, partitionsTruncated } = buildLagSeries(
      [
        raw(60, 5, {
          partitions: parts([
            ["t", 0, 5],
            ["t", 1, null],
          ]),
        }),
        raw(130, 6, {
          partitions: parts([
            ["t", 0, 2],
            ["t", 1, 4],
          ]),
        }),
      ],
      [rollup],
      { from: T0, to: T0 + 180 * S, stepMs: 60 * S, partitions: true },
    );
    expect(points).toHaveLength(3);
    expect(partitionsTruncated).toBe(false);
    expect(partitions).toEqual([
      { topic: "t", partition: 0, lag: [9n, 5n, 5n], lagSeconds: [null, null, null] },
      { topic: "t", partition: 1, lag: [null, null, 4n], lagSeconds: [null, null, null] },
    ]);
  });

  it("caps the number of partition series", () => {
    const many = new Map<string, PartitionLagValue>(
      Array.from({ length: 5 }, (_, i) => [`t\u0000${i}`, { lag: 1n, lagSeconds: 1 }]),
    );
    const r = buildLagSeries([raw(0, 5, { partitions: many })], [], {
      from: T0,
      to: T0 + S,
      stepMs: S,
      partitions: true,
      maxPartitions: 3,
    });
    expect(r.partitions?.map((p) => p.partition)).toEqual([0, 1, 2]);
    expect(r.partitionsTruncated).toBe(true);
  });
});

describe("selectRollups", () => {
  it.each([
    { label: "no raw: every bucket", raw: [], rollups: [bucket(0, 60, 1, 1)], kept: [0] },
    {
      label: "buckets from the first raw sample on are dropped",
      raw: [raw(90, 1)],
      rollups: [bucket(0, 60, 1, 1), bucket(60, 60, 1, 1), bucket(120, 60, 1, 1)],
      kept: [0, 60],
    },
    {
      label: "hour buckets from the first minute bucket on are dropped",
      raw: [],
      rollups: [
        bucket(0, 3600, 1, 1),
        bucket(3600, 3600, 1, 1),
        bucket(3600, 60, 1, 1),
        bucket(3660, 60, 1, 1),
      ],
      kept: [3600, 3660, 0],
    },
  ])("$label", ({ raw: r, rollups, kept }) => {
    expect(selectRollups(r, rollups).map((b) => (b.at - T0) / S)).toEqual(kept);
  });
});

describe("defaultStepMs", () => {
  it.each([
    { label: "a minute", spanS: 60, stepS: 1 },
    { label: "an hour", spanS: 3600, stepS: 10 },
    { label: "a day", spanS: 86_400, stepS: 300 },
    { label: "a week", spanS: 7 * 86_400, stepS: 1800 },
    { label: "31 days", spanS: 31 * 86_400, stepS: 7200 },
  ])("$label → $stepS s", ({ spanS, stepS }) => {
    expect(defaultStepMs(spanS * S)).toBe(stepS * S);
    expect(spanS / stepS).toBeLessThanOrEqual(500);
  });

  it("aligns the grid down to a multiple of the step", () => {
    expect(gridStart(T0 + 7 * MIN + 5 * S, 5 * MIN)).toBe(T0 + 5 * MIN);
  });
});
