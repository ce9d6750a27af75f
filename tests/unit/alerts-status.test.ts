import { describe, expect, test } from "vitest";

import {
  DEFAULT_CONSUMER_STATUS_CONFIG,
  groupStatus,
  statusRank,
  STATUS_ORDER,
  updateConsumerStatus,
  type ConsumerStatus,
  type ConsumerStatusConfig,
  type ConsumerStatusResult,
  type ConsumerStatusState,
  type PartitionInput,
} from "../../lib/domain/alerts";

const cfg: ConsumerStatusConfig = { windowSize: 4, minWindowEntries: 2, allowedLag: 0, minStopMs: 30_000 };
const sec = (n: number) => n * 1000;

interface Obs {
  at: number;
  /** [committed, logEnd]; committed null: no commit. */
  o: [string | number | null, string | number | null];
  /** Assigned to a live member (default true). */
  live?: boolean;
  topic?: string;
  partition?: number;
}

function part(s: Obs): PartitionInput {
  const [c, e] = s.o;
  const committed = c === null ? null : String(c);
  const logEnd = e === null ? null : String(e);
  let lag: string | null = null;
  if (committed !== null && logEnd !== null) {
    const d = BigInt(logEnd) - BigInt(committed);
    lag = (d > 0n ? d : 0n).toString();
  }
  return {
    topic: s.topic ?? "t",
    partition: s.partition ?? 0,
    committedOffset: committed,
    logEndOffset: logEnd,
    lag,
    assigned: s.live ?? true,
  };
}

/** Folds single-partition observations; returns every result. */
function run(steps: Obs[], c: ConsumerStatusConfig = cfg, initial: ConsumerStatusState | null = null) {
  let state = initial;
  const results: ConsumerStatusResult[] = [];
  for (const s of steps) {
    const r = updateConsumerStatus(state, { at: s.at, partitions: [part(s)] }, c);
    results.push(r);
    state = r.state;
  }
  return results;
}
const last = (rs: ConsumerStatusResult[]) => rs.at(-1)!;
const statuses = (rs: ConsumerStatusResult[]) => rs.map((r) => r.partitions[0]!.status);

/** A consumer committing every 10 s with the given [committed, logEnd] pairs. */
const every10s = (pairs: [number | string, number | string][], live = true): Obs[] =>
  pairs.map((o, i) => ({ at: sec(10 * i), o, live }));

describe("updateConsumerStatus: Burrow's rules per partition", () => {
  test.each<{ label: string; steps: Obs[]; status: ConsumerStatus; reason: RegExp }>([
    {
      label: "no committed offset: unknown",
      steps: [{ at: 0, o: [null, 100] }],
      status: "unknown",
      reason: /no committed offset/,
    },
    {
      label: "no log-end offset: unknown",
      steps: [{ at: 0, o: [100, null] }],
      status: "unknown",
      reason: /lag unknown/,
    },
    {
      label: "idle topic with lag 0, first observation: OK despite a one-entry window",
      steps: [{ at: 0, o: [10, 10] }],
      status: "OK",
      reason: /within allowance/,
    },
    {
      label: "idle topic, lag 0, nobody committing for an hour: OK, never STOP",
      steps: [
        { at: 0, o: [10, 10], live: false },
        { at: sec(3600), o: [10, 10], live: false },
      ],
      status: "OK",
      reason: /within allowance/,
    },
    {
      label: "one commit with lag: window too short, unknown",
      steps: [{ at: 0, o: [10, 15] }],
      status: "unknown",
      reason: /1 commit\(s\) observed, 2 needed/,
    },
    {
      label: "caught up earlier in the window: OK",
      steps: every10s([
        [10, 10],
        [10, 12],
        [11, 14],
      ]),
      status: "OK",
      reason: /caught up within the window/,
    },
    {
      label: "stuck consumer committing the same offset (live member): STALL",
      steps: every10s([
        [10, 12],
        [10, 14],
        [10, 16],
        [10, 18],
      ]),
      status: "STALL",
      reason: /stuck at 10 over 4 commits with lag 8/,
    },
    {
      label: "same offset at the end but a different one still in the window: WARN, not STALL",
      steps: every10s([
        [5, 12],
        [10, 18],
        [10, 19],
        [10, 20],
      ]),
      status: "WARN",
      reason: /lag grew from 7 to 10/,
    },
    {
      label: "slowly falling behind (lag never decreases, equal steps allowed): WARN",
      steps: every10s([
        [10, 15],
        [20, 26],
        [30, 36],
        [40, 48],
      ]),
      status: "WARN",
      reason: /lag grew from 5 to 8 over 4 commits/,
    },
    {
      label: "lag decreased once in the window: OK",
      steps: every10s([
        [10, 15],
        [20, 27],
        [30, 36],
        [40, 48],
      ]),
      status: "OK",
      reason: /consuming/,
    },
    {
      label: "lag flat across the window (did not grow overall): OK",
      steps: every10s([
        [10, 15],
        [20, 25],
        [30, 35],
        [40, 45],
      ]),
      status: "OK",
      reason: /consuming/,
    },
    {
      label: "reset to an earlier offset: REWIND",
      steps: every10s([
        [100, 150],
        [200, 250],
        [50, 260],
      ]),
      status: "REWIND",
      reason: /went back from 200 to 50/,
    },
    {
      label: "a rewind that has left the window (4 newer commits): no longer REWIND",
      steps: every10s([
        [200, 250],
        [50, 260],
        [60, 270],
        [70, 280],
        [80, 290],
        [90, 299],
      ]),
      status: "OK",
      reason: /consuming/,
    },
    {
      label: "BigInt-size offsets keep their precision",
      steps: every10s([
        ["9223372036854775000", "9223372036854775001"],
        ["9223372036854775000", "9223372036854775003"],
        ["9223372036854775000", "9223372036854775007"],
      ]),
      status: "STALL",
      reason: /stuck at 9223372036854775000 over 3 commits with lag 7/,
    },
  ])("$label", ({ steps, status, reason }) => {
    const r = last(run(steps)).partitions[0]!;
    expect(r.status).toBe(status);
    expect(r.reason).toMatch(reason);
  });

  test("garbage offsets are unknown instead of throwing", () => {
    const r = updateConsumerStatus(
      null,
      {
        at: 0,
        partitions: [{ topic: "t", partition: 0, committedOffset: "12abc", logEndOffset: "1e3", lag: "x" }],
      },
      cfg,
    );
    expect(r.partitions[0]).toMatchObject({ status: "unknown", committedOffset: null, lag: null });
  });

  describe("STOP: consumer crashed on a busy topic", () => {
    // Commits at 0, 10, 20, 30 s (span 30 s), then nobody commits while producers go on.
    const before = every10s([
      [10, 15],
      [20, 26],
      [30, 36],
      [40, 48],
    ]);
    const crashed = (at: number): Obs => ({ at, o: [40, 100 + Math.floor(at / 1000)], live: false });

    test.each([
      { label: "time since the last commit equal to the span: not STOP yet", at: sec(60), expected: "WARN" },
      { label: "just past the span: STOP", at: sec(60) + 1, expected: "STOP" },
    ])("$label", ({ at, expected }) => {
      const r = last(run([...before, crashed(at)])).partitions[0]!;
      expect(r.status).toBe(expected);
      expect(r.lastCommitAt).toBe(sec(30));
    });

    test("the window span governs when it is longer than minStopMs", () => {
      const slow = every10s([
        [10, 15],
        [20, 26],
        [30, 36],
        [40, 48],
      ]).map((s) => ({ ...s, at: s.at * 6 })); // commits every 60 s: span 180 s
      expect(
        last(run([...slow, { at: sec(180 + 180), o: [40, 500], live: false }])).partitions[0]!.status,
      ).toBe("WARN");
      const r = last(run([...slow, { at: sec(180 + 180) + 1, o: [40, 500], live: false }])).partitions[0]!;
      expect(r.status).toBe("STOP");
      expect(r.reason).toMatch(/no commit for 180001 ms \(> 180000 ms\) with lag 460/);
    });

    test("minStopMs governs a one-commit window: unknown until then, STOP after", () => {
      const first: Obs = { at: 0, o: [40, 45], live: false };
      expect(statuses(run([first, { at: sec(30), o: [40, 50], live: false }]))).toEqual([
        "unknown",
        "unknown",
      ]);
      expect(last(run([first, { at: sec(30) + 1, o: [40, 50], live: false }])).partitions[0]!.status).toBe(
        "STOP",
      );
    });

    test("a live member keeps the window fresh: STALL instead of STOP", () => {
      const r = run([
        ...before,
        { at: sec(40), o: [40, 60] },
        { at: sec(50), o: [40, 70] },
        { at: sec(90), o: [40, 80] },
      ]);
      expect(last(r).partitions[0]).toMatchObject({ status: "STALL", lastCommitAt: sec(90) });
    });

    test("caught up when it crashed and nothing produced since: OK, not STOP", () => {
      const r = last(
        run([...before, { at: sec(40), o: [40, 40], live: false }, { at: sec(600), o: [40, 40] }]),
      );
      expect(r.partitions[0]!.status).toBe("OK");
    });
  });

  test.each([
    { label: "lag exactly at allowedLag: OK", lag: 3, expected: "OK" },
    { label: "lag one above allowedLag: not OK", lag: 4, expected: "unknown" },
  ])("allowance is inclusive: $label", ({ lag, expected }) => {
    const r = run([{ at: 0, o: [10, 10 + lag] }], { ...cfg, allowedLag: 3 });
    expect(last(r).partitions[0]!.status).toBe(expected);
  });

  describe("topic recreated (log end went below the committed offset)", () => {
    const steps: Obs[] = [
      { at: sec(0), o: [5000, 5000] },
      { at: sec(10), o: [5000, 5005] },
      { at: sec(20), o: [5000, 10] }, // deleted and recreated: log end regressed
      { at: sec(30), o: [5000, 20] }, // consumer still parked beyond the new log end
      { at: sec(40), o: [0, 30] }, // auto.offset.reset=earliest
    ];

    test("regression: unknown with a reason, the window restarts", () => {
      const r = run(steps);
      expect(statuses(r)).toEqual(["OK", "OK", "unknown", "unknown", "REWIND"]);
      expect(r[2]!.partitions[0]!.reason).toMatch(/log-end offset went back from 5005 to 10/);
      expect(r[2]!.partitions[0]!.windowEntries).toBe(1);
      expect(r[3]!.partitions[0]!.reason).toMatch(/committed offset 5000 is ahead of log-end offset 20/);
      expect(r[4]!.partitions[0]!.reason).toMatch(/went back from 5000 to 0/);
    });

    test("ahead of the log end for one poll only (a commit raced the log-end read): OK", () => {
      const r = run([
        { at: sec(0), o: [100, 100] },
        { at: sec(10), o: [105, 104] },
        { at: sec(20), o: [106, 106] },
      ]);
      expect(statuses(r)).toEqual(["OK", "OK", "OK"]);
      expect(r[2]!.state.partitions[0]!.aheadSince).toBeNull();
    });
  });

  describe("window bookkeeping", () => {
    test("the window keeps the last windowSize commits, oldest first", () => {
      const r = last(
        run(
          every10s([
            [1, 9],
            [2, 9],
            [3, 9],
            [4, 9],
            [5, 9],
            [6, 9],
          ]),
        ),
      );
      expect(r.state.partitions[0]!.entries.map((e) => e.offset)).toEqual(["3", "4", "5", "6"]);
      expect(r.state.partitions[0]!.entries[0]).toEqual({ at: sec(20), offset: "3", lag: "6" });
    });

    test("no live member and an unchanged offset: no new entry (no commit seen)", () => {
      const r = run([
        { at: 0, o: [10, 12], live: false },
        { at: sec(10), o: [10, 14], live: false },
      ]);
      expect(last(r).partitions[0]!.windowEntries).toBe(1);
      expect(last(r).partitions[0]!.lastCommitAt).toBe(0);
    });

    test("the committed offset disappearing clears the window", () => {
      const r = run([...every10s([[10, 12]]), { at: sec(10), o: [null, 14] }]);
      expect(last(r).state.partitions[0]!.entries).toEqual([]);
    });

    test("partitions that disappear are dropped from the state; state is sorted", () => {
      const a = updateConsumerStatus(
        null,
        {
          at: 0,
          partitions: [
            part({ at: 0, o: [1, 1], topic: "u" }),
            part({ at: 0, o: [1, 1], topic: "t", partition: 1 }),
          ],
        },
        cfg,
      );
      expect(a.state.partitions.map((p) => `${p.topic}:${p.partition}`)).toEqual(["t:1", "u:0"]);
      const b = updateConsumerStatus(
        a.state,
        { at: sec(10), partitions: [part({ at: 0, o: [2, 2], topic: "u" })] },
        cfg,
      );
      expect(b.state.partitions.map((p) => `${p.topic}:${p.partition}`)).toEqual(["u:0"]);
      expect(b.state.partitions[0]!.entries.map((e) => e.offset)).toEqual(["1", "2"]);
    });

    test("state survives a JSON round trip and continues the same way", () => {
      const steps = every10s([
        [10, 12],
        [10, 14],
        [10, 16],
      ]);
      const direct = run(steps);
      const firstTwo = run(steps.slice(0, 2));
      const revived = JSON.parse(JSON.stringify(last(firstTwo).state)) as ConsumerStatusState;
      const resumed = run(steps.slice(2), cfg, revived);
      expect(last(resumed)).toEqual(last(direct));
      expect(last(resumed).partitions[0]!.status).toBe("STALL");
    });

    test("defaults: window 10, at least 2 commits, no allowance, 5 min minimum before STOP", () => {
      expect(DEFAULT_CONSUMER_STATUS_CONFIG).toEqual({
        windowSize: 10,
        minWindowEntries: 2,
        allowedLag: 0,
        minStopMs: 300_000,
      });
      const r = run(
        Array.from({ length: 12 }, (_, i): Obs => ({ at: sec(10 * i), o: [10, 12 + i] })),
        DEFAULT_CONSUMER_STATUS_CONFIG,
      );
      expect(last(r).partitions[0]!.windowEntries).toBe(10);
      expect(last(r).partitions[0]!.status).toBe("STALL");
    });
  });
});

describe("group status", () => {
  test("severity order OK < WARN < REWIND < STALL < STOP, unknown between OK and WARN", () => {
    expect(STATUS_ORDER).toEqual(["OK", "WARN", "REWIND", "STALL", "STOP"]);
    expect(statusRank("unknown")).toBeGreaterThan(statusRank("OK"));
    expect(statusRank("unknown")).toBeLessThan(statusRank("WARN"));
  });

  test.each<{ label: string; parts: ConsumerStatus[]; expected: ConsumerStatus }>([
    { label: "all OK", parts: ["OK", "OK"], expected: "OK" },
    { label: "worst wins", parts: ["OK", "WARN", "STALL", "REWIND"], expected: "STALL" },
    { label: "STOP is the worst", parts: ["STALL", "STOP", "REWIND"], expected: "STOP" },
    {
      label: "unknown does not hide a worse known status",
      parts: ["unknown", "WARN", "OK"],
      expected: "WARN",
    },
    { label: "OK and unknown: unknown", parts: ["OK", "unknown"], expected: "unknown" },
    { label: "no partitions: unknown", parts: [], expected: "unknown" },
  ])("$label", ({ parts, expected }) => {
    expect(groupStatus(parts)).toBe(expected);
  });

  test("updateConsumerStatus reports the worst partition as the group status", () => {
    let state: ConsumerStatusState | null = null;
    let r: ConsumerStatusResult | undefined;
    for (let i = 0; i < 3; i++) {
      r = updateConsumerStatus(
        state,
        {
          at: sec(10 * i),
          partitions: [
            part({ at: 0, o: [10, 10], partition: 0 }),
            part({ at: 0, o: [10, 12 + i], partition: 1 }),
          ],
        },
        cfg,
      );
      state = r.state;
    }
    expect(r!.partitions.map((p) => p.status)).toEqual(["OK", "STALL"]);
    expect(r!.group).toBe("STALL");
  });
});
