import { describe, expect, it } from "vitest";

import { shouldWriteSample } from "@/lib/domain/lag-history";
import { lagSeconds, observeLogEnd, type OffsetPoint } from "@/lib/domain/lag-time";

const T = 1_700_000_000_000;
const s = (n: number) => T + n * 1000;

/** Builds a table from [offset, atSeconds] observations, as the collector would. */
function table(obs: [number, number][], max?: number): OffsetPoint[] {
  let pts: OffsetPoint[] = [];
  for (const [o, at] of obs) pts = observeLogEnd(pts, BigInt(o), s(at), max);
  return pts;
}

describe("observeLogEnd", () => {
  it("extends the last point while the offset stands still (idle topic)", () => {
    expect(
      table([
        [100, 0],
        [100, 5],
        [100, 10],
      ]),
    ).toEqual([["100", s(0), s(10)]]);
  });
  it("adds a point when the log end advances", () => {
    expect(
      table([
        [100, 0],
        [150, 5],
      ]),
    ).toEqual([
      ["100", s(0), s(0)],
      ["150", s(5), s(5)],
    ]);
  });
  it("restarts the table when the log end goes backwards (topic recreated)", () => {
    expect(
      table([
        [100, 0],
        [150, 5],
        [3, 10],
      ]),
    ).toEqual([["3", s(10), s(10)]]);
  });
  it("ignores an out-of-order observation", () => {
    expect(
      table([
        [100, 10],
        [150, 5],
      ]),
    ).toEqual([["100", s(10), s(10)]]);
  });
  it("stays bounded, keeping the newest points exact and the oldest one", () => {
    const obs: [number, number][] = Array.from({ length: 1000 }, (_, i) => [i * 10, i]);
    const pts = table(obs, 50);
    expect(pts.length).toBeLessThanOrEqual(50);
    expect(pts.at(-1)).toEqual(["9990", s(999), s(999)]);
    expect(pts.at(-2)).toEqual(["9980", s(998), s(998)]);
    const offsets = pts.map((p) => Number(p[0]));
    expect([...offsets].sort((a, b) => a - b)).toEqual(offsets);
  });
  it("keeps offsets beyond 2^53 exact", () => {
    const big = 9_223_372_036_854_775_000n;
    const pts = observeLogEnd(observeLogEnd([], big, s(0)), big + 7n, s(1));
    expect(pts.map((p) => p[0])).toEqual([big.toString(), (big + 7n).toString()]);
  });
});

describe("lagSeconds", () => {
  const steady = table([
    [0, 0],
    [100, 10],
    [200, 20],
    [300, 30],
  ]);
  const cases: {
    name: string;
    points: OffsetPoint[];
    committed: bigint | null;
    logEnd: bigint | null;
    now: number;
    want: { seconds: number | null; lowerBound: boolean };
  }[] = [
    {
      name: "caught up is zero",
      points: steady,
      committed: 300n,
      logEnd: 300n,
      now: s(40),
      want: { seconds: 0, lowerBound: false },
    },
    {
      name: "no commit is unknown, never zero",
      points: steady,
      committed: null,
      logEnd: 300n,
      now: s(40),
      want: { seconds: null, lowerBound: false },
    },
    {
      name: "no log end is unknown",
      points: steady,
      committed: 10n,
      logEnd: null,
      now: s(40),
      want: { seconds: null, lowerBound: false },
    },
    {
      // Record 150 is the 51st of 100..199, appended in (10 s, 20 s]: at 15.1 s.
      name: "interpolates between the surrounding points",
      points: steady,
      committed: 150n,
      logEnd: 300n,
      now: s(40),
      want: { seconds: 24.9, lowerBound: false },
    },
    {
      name: "a commit exactly at a point's offset is the first record after it",
      points: steady,
      committed: 100n,
      logEnd: 300n,
      now: s(40),
      want: { seconds: 29.9, lowerBound: false },
    },
    {
      name: "older than the table: a lower bound from the first point",
      points: table([
        [500, 0],
        [600, 10],
      ]),
      committed: 10n,
      logEnd: 600n,
      now: s(40),
      want: { seconds: 40, lowerBound: true },
    },
    {
      // Idle from 0 s to 100 s at offset 100, then 10 records by 105 s: the next record to read
      // (100) was produced after the pause, not at its start.
      name: "an idle stretch does not count as lag",
      points: table([
        [100, 0],
        [100, 100],
        [110, 105],
      ]),
      committed: 100n,
      logEnd: 110n,
      now: s(106),
      want: { seconds: 5.5, lowerBound: false },
    },
    {
      name: "a consumer stuck on an idle topic has no lag in seconds",
      points: table([
        [100, 0],
        [100, 3600],
      ]),
      committed: 100n,
      logEnd: 100n,
      now: s(3600),
      want: { seconds: 0, lowerBound: false },
    },
    {
      name: "an empty table is unknown",
      points: [],
      committed: 1n,
      logEnd: 5n,
      now: s(1),
      want: { seconds: null, lowerBound: false },
    },
  ];
  it.each(cases)("$name", ({ points, committed, logEnd, now, want }) => {
    const got = lagSeconds(points, committed, logEnd, now);
    expect(got.lowerBound).toBe(want.lowerBound);
    if (want.seconds === null) expect(got.seconds).toBeNull();
    else expect(got.seconds).toBeCloseTo(want.seconds, 6);
  });

  it("grows with wall time for a crashed consumer on a busy topic", () => {
    const a = lagSeconds(steady, 100n, 300n, s(40)).seconds ?? NaN;
    const b = lagSeconds(steady, 100n, 300n, s(100)).seconds ?? NaN;
    expect(b - a).toBeCloseTo(60, 6);
  });
});

describe("shouldWriteSample (change-only lag history)", () => {
  const last = { at: s(0), signature: "t:0=5/10", lagSeconds: 10 };
  it.each([
    { name: "first sample", last: null, next: { at: s(1), signature: "x", lagSeconds: null }, want: true },
    { name: "nothing changed", last, next: { ...last, at: s(5) }, want: false },
    { name: "offsets moved", last, next: { ...last, at: s(5), signature: "t:0=6/10" }, want: true },
    { name: "heartbeat due", last, next: { ...last, at: s(300) }, want: true },
    { name: "heartbeat not yet due", last, next: { ...last, at: s(299) }, want: false },
    { name: "lag seconds drifted by 20 %", last, next: { ...last, at: s(5), lagSeconds: 12 }, want: true },
    {
      name: "lag seconds jitter below 1 s",
      last,
      next: { ...last, at: s(5), lagSeconds: 10.5 },
      want: false,
    },
    { name: "lag seconds became unknown", last, next: { ...last, at: s(5), lagSeconds: null }, want: true },
  ])("$name", ({ last: l, next, want }) => {
    expect(shouldWriteSample(l, next)).toBe(want);
  });
});
