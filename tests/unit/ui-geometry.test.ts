import { describe, expect, test } from "vitest";

import { ganttBars, place, swimlaneSegments, timeTicks } from "../../components/geometry";
import { bucketCount, fillBuckets } from "../../lib/api/stats";

const T0 = Date.parse("2026-11-30T10:00:00Z");
const min = 60_000;
const iso = (t: number) => new Date(t).toISOString();

describe("place", () => {
  test.each([
    {
      label: "inside",
      s: T0 + 10 * min,
      e: T0 + 20 * min,
      expected: { leftPct: 10, widthPct: 10, open: false, clippedStart: false, clippedEnd: false },
    },
    {
      label: "began before the window",
      s: T0 - 10 * min,
      e: T0 + 10 * min,
      expected: { leftPct: 0, widthPct: 10, clippedStart: true },
    },
    {
      label: "ends after the window",
      s: T0 + 90 * min,
      e: T0 + 200 * min,
      expected: { leftPct: 90, widthPct: 10, clippedEnd: true },
    },
    {
      label: "open: runs to now",
      s: T0 + 50 * min,
      e: null,
      expected: { leftPct: 50, widthPct: 30, open: true },
    },
  ])("$label", ({ s, e, expected }) => {
    expect(place(s, e, T0, T0 + 100 * min, T0 + 80 * min)).toMatchObject(expected);
  });

  test("outside the window: nothing", () => {
    expect(place(T0 - 20 * min, T0 - 10 * min, T0, T0 + 100 * min, T0 + 100 * min)).toBeNull();
    expect(place(T0 + 200 * min, null, T0, T0 + 100 * min, T0 + 300 * min)).toBeNull();
  });

  test("an instant keeps a minimum width, never past the right edge", () => {
    expect(place(T0 + 50 * min, T0 + 50 * min, T0, T0 + 100 * min, T0, 0.5)?.widthPct).toBe(0.5);
    expect(place(T0 + 100 * min, T0 + 100 * min, T0, T0 + 100 * min, T0, 0.5)?.widthPct).toBe(0);
  });

  test("an empty window places nothing", () => {
    expect(place(T0, T0 + 1, T0, T0, T0)).toBeNull();
  });
});

describe("swimlaneSegments", () => {
  test("consecutive states fill the lane; the open one ends now", () => {
    const segs = swimlaneSegments(
      [
        { state: "PreparingRebalance", from: iso(T0 + 40 * min), to: iso(T0 + 41 * min) },
        { state: "Stable", from: iso(T0 - 60 * min), to: iso(T0 + 40 * min) },
        { state: "Stable", from: iso(T0 + 41 * min), to: null },
      ],
      T0,
      T0 + 100 * min,
      T0 + 60 * min,
    );
    expect(segs.map((s) => [s.state, s.leftPct, s.widthPct, s.open])).toEqual([
      ["Stable", 0, 40, false],
      ["PreparingRebalance", 40, 1, false],
      ["Stable", 41, 19, true],
    ]);
  });

  test("intervals ending before the window are dropped", () => {
    expect(
      swimlaneSegments(
        [{ state: "Empty", from: iso(T0 - 9 * min), to: iso(T0 - 5 * min) }],
        T0,
        T0 + min,
        T0,
      ),
    ).toEqual([]);
  });
});

describe("ganttBars", () => {
  const session = (memberId: string, joined: number, left: number | null, leftHow: string | null = null) => ({
    memberId,
    clientId: `c-${memberId}`,
    clientHost: "/127.0.0.1",
    groupInstanceId: null,
    joinedAt: iso(joined),
    leftAt: left === null ? null : iso(left),
    leftHow,
  });

  test("one row per session, oldest join first, open ones to now", () => {
    const bars = ganttBars(
      [session("b", T0 + 30 * min, null), session("a", T0 + 10 * min, T0 + 20 * min, "member-crashed")],
      T0,
      T0 + 100 * min,
      T0 + 50 * min,
    );
    expect(bars.map((b) => [b.session.memberId, b.leftPct, b.widthPct, b.open, b.session.leftHow])).toEqual([
      ["a", 10, 10, false, "member-crashed"],
      ["b", 30, 20, true, null],
    ]);
  });

  test("sessions entirely outside the window are left out", () => {
    expect(ganttBars([session("x", T0 - 50 * min, T0 - 40 * min, "member-left")], T0, T0 + min, T0)).toEqual(
      [],
    );
  });
});

describe("timeTicks", () => {
  test("round minutes for an hour", () => {
    const ticks = timeTicks(T0 + 7 * min, T0 + 67 * min, 6);
    expect(ticks.every((t) => t % (15 * min) === 0)).toBe(true);
    expect(ticks[0]).toBe(T0 + 15 * min);
    expect(ticks.at(-1)).toBe(T0 + 60 * min);
  });

  test("aligned to the viewer's zone (UTC+05:30 is offset -330)", () => {
    const ticks = timeTicks(T0, T0 + 24 * 3_600_000, 6, -330);
    // 6 h steps in local time: 00:00/06:00/... local is 18:30/00:30/... UTC.
    expect(ticks.map((t) => new Date(t + 330 * min).getUTCHours() % 6)).toEqual(ticks.map(() => 0));
  });

  test("nothing for an empty window", () => {
    expect(timeTicks(T0, T0)).toEqual([]);
  });
});

describe("rebalance buckets", () => {
  const H = 3_600_000;
  test("every hour of the window, zeros filled, aligned to the epoch", () => {
    const from = T0 + 30 * min;
    const out = fillBuckets([{ at: T0 + H, count: 3 }], from, from + 3 * H, H);
    expect(out).toEqual([
      { at: T0, count: 0 },
      { at: T0 + H, count: 3 },
      { at: T0 + 2 * H, count: 0 },
      { at: T0 + 3 * H, count: 0 },
    ]);
    expect(bucketCount(from, from + 3 * H, H)).toBe(4);
    expect(bucketCount(T0, T0 + 24 * H, H)).toBe(24);
  });
});
