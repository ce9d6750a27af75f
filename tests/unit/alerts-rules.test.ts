import { describe, expect, test } from "vitest";

import {
  evaluateGroup,
  formatDuration,
  LAG_GROWTH_WINDOW_MS,
  LAG_HISTORY_MAX,
  resolveRules,
  type EffectiveRules,
  type EpisodeInput,
  type Finding,
  type GroupAlertInput,
  type GroupAlertState,
  type RuleKind,
  type RuleOverride,
} from "../../lib/domain/alerts";

const NOW = 10_000_000;
const MIN = 60_000;

const input = (o: Partial<GroupAlertInput> = {}): GroupAlertInput => ({
  groupId: "orders",
  type: "classic",
  state: "Stable",
  stateSince: NOW - 60 * MIN,
  memberCount: 2,
  totalLag: "0",
  maxLag: "0",
  lagSeconds: 0,
  consumerStatus: "OK",
  episodes: [],
  ...o,
});

const rules = (overrides: Omit<RuleOverride, "clusterId" | "groupGlob">[] = []): EffectiveRules =>
  resolveRules(
    overrides.map((o) => ({ clusterId: null, groupGlob: null, ...o })),
    "c",
    "orders",
  );

const finding = (findings: Finding[], kind: RuleKind) => findings.find((f) => f.kind === kind)!;
const evalOne = (kind: RuleKind, i: Partial<GroupAlertInput>, r = rules(), now = NOW) =>
  finding(evaluateGroup(null, input(i), r, now).findings, kind);

const ep = (detectedAt: number, rebalance = true): EpisodeInput => ({
  detectedAt,
  startedAfter: detectedAt - 1000,
  endedBy: detectedAt + 1000,
  rebalance,
});

describe("evaluateGroup: every rule answers", () => {
  test("a healthy group: one non-firing finding per rule, in a fixed order", () => {
    const { findings } = evaluateGroup(null, input(), rules(), NOW);
    expect(findings.map((f) => f.kind)).toEqual(["storm", "stuck", "lag", "status", "emptied"]);
    expect(findings.every((f) => !f.firing)).toBe(true);
  });

  test("a disabled rule answers firing=false, marked disabled, even when its condition holds", () => {
    const f = evalOne(
      "emptied",
      { state: "Empty", totalLag: "50" },
      rules([{ kind: "emptied", enabled: false }]),
    );
    expect(f).toMatchObject({ firing: false, details: { disabled: true } });
    expect(evalOne("emptied", { state: "Empty", totalLag: "50" }).firing).toBe(true);
  });

  test("severity comes from the rule", () => {
    const r = rules([{ kind: "storm", params: { severity: "critical" } }]);
    expect(evalOne("storm", {}, r).severity).toBe("critical");
    expect(evalOne("storm", {}).severity).toBe("warning");
  });
});

describe("storm", () => {
  test.each([
    {
      label: "3 rebalances within 10 min: fires (count at the threshold)",
      at: [1, 2, 3],
      expected: 3,
      firing: true,
    },
    { label: "2 rebalances: below the threshold", at: [1, 2], expected: 2, firing: false },
    {
      label: "an episode exactly windowMs ago is outside (window is (now-10min, now])",
      at: [10 * 60, 2, 3],
      expected: 2,
      firing: false,
    },
    {
      label: "an episode 1 ms inside the window counts",
      at: [10 * 60 - 0.001, 2, 3],
      expected: 3,
      firing: true,
    },
    { label: "an episode detected exactly now counts", at: [0, 2, 3], expected: 3, firing: true },
    { label: "an episode after now does not", at: [-1, 2, 3], expected: 2, firing: false },
  ])("$label", ({ at, expected, firing }) => {
    const f = evalOne("storm", { episodes: at.map((s) => ep(NOW - s * 1000)) });
    expect(f.firing).toBe(firing);
    expect(f.details).toMatchObject({ episodes: expected, minEpisodes: 3, windowMs: 600_000 });
  });

  test("episodes without a rebalance (static member restart) do not count", () => {
    const f = evalOne("storm", { episodes: [ep(NOW - 1000), ep(NOW - 2000), ep(NOW - 3000, false)] });
    expect(f.firing).toBe(false);
    expect(f.details.episodes).toBe(2);
  });

  test("summary reads like a sentence", () => {
    const f = evalOne("storm", { episodes: [1, 2, 3, 4].map((s) => ep(NOW - s * 1000)) });
    expect(f.summary).toBe("4 rebalances in 10 min");
    expect(evalOne("storm", { episodes: [ep(NOW)] }).summary).toBe("1 rebalance in 10 min");
  });

  test("an overridden window and threshold", () => {
    const r = rules([{ kind: "storm", params: { minEpisodes: 2, windowMs: 60_000 } }]);
    expect(evalOne("storm", { episodes: [ep(NOW - 59_000), ep(NOW - 1000)] }, r)).toMatchObject({
      firing: true,
      summary: "2 rebalances in 1 min",
    });
    expect(evalOne("storm", { episodes: [ep(NOW - 61_000), ep(NOW - 1000)] }, r).firing).toBe(false);
  });
});

describe("stuck", () => {
  test.each([
    {
      label: "PreparingRebalance for exactly afterMs: fires",
      state: "PreparingRebalance",
      since: 5 * MIN,
      firing: true,
    },
    {
      label: "1 ms short of afterMs: not yet",
      state: "PreparingRebalance",
      since: 5 * MIN - 1,
      firing: false,
    },
    { label: "CompletingRebalance for 6 min", state: "CompletingRebalance", since: 6 * MIN, firing: true },
    { label: "KIP-848 Reconciling for 6 min", state: "Reconciling", since: 6 * MIN, firing: true },
    { label: "KIP-848 Assigning for 6 min", state: "Assigning", since: 6 * MIN, firing: true },
    { label: "Stable for an hour is not stuck", state: "Stable", since: 60 * MIN, firing: false },
    { label: "Empty for an hour is not stuck", state: "Empty", since: 60 * MIN, firing: false },
    {
      label: "rebalancing since an unknown time: not fired",
      state: "PreparingRebalance",
      since: null,
      firing: false,
    },
  ])("$label", ({ state, since, firing }) => {
    const f = evalOne("stuck", { state, stateSince: since === null ? null : NOW - since });
    expect(f.firing).toBe(firing);
    expect(f.details).toMatchObject({
      state,
      afterMs: 300_000,
      forMs: REBALANCING.has(state) ? since : null,
    });
  });

  test("summary names the state and the time", () => {
    expect(evalOne("stuck", { state: "PreparingRebalance", stateSince: NOW - 6 * MIN }).summary).toBe(
      "in PreparingRebalance for 6 min",
    );
  });
});
const REBALANCING = new Set(["PreparingRebalance", "CompletingRebalance", "Reconciling", "Assigning"]);

describe("lag", () => {
  const noSustain = (params: Record<string, unknown>) =>
    rules([{ kind: "lag", params: { sustainMs: 0, ...params } }]);

  test.each([
    { label: "lag seconds exactly at the limit: fires", i: { lagSeconds: 300 }, p: {}, firing: true },
    { label: "lag seconds just below: no", i: { lagSeconds: 299.9 }, p: {}, firing: false },
    { label: "lag seconds unknown: no", i: { lagSeconds: null }, p: {}, firing: false },
    {
      label: "total offsets exactly at the limit",
      i: { totalLag: "1000", lagSeconds: null },
      p: { totalOffsets: 1000 },
      firing: true,
    },
    {
      label: "total offsets one below the limit",
      i: { totalLag: "999", lagSeconds: null },
      p: { totalOffsets: 1000 },
      firing: false,
    },
    {
      label: "BigInt-size total lag compares exactly",
      i: { totalLag: "9223372036854775000", lagSeconds: null },
      p: { totalOffsets: 1000 },
      firing: true,
    },
    {
      label: "max partition lag at the limit",
      i: { maxLag: "500", lagSeconds: null },
      p: { maxPartitionOffsets: 500 },
      firing: true,
    },
    {
      label: "max partition lag unknown",
      i: { maxLag: null, lagSeconds: null },
      p: { maxPartitionOffsets: 500 },
      firing: false,
    },
    {
      label: "every threshold switched off: never fires",
      i: { totalLag: "9999999", lagSeconds: 99999 },
      p: { seconds: null },
      firing: false,
    },
  ])("$label", ({ i, p, firing }) => {
    const f = evalOne("lag", i, noSustain(p));
    expect(f.firing).toBe(firing);
  });

  test("details name what was breached and the thresholds", () => {
    const f = evalOne("lag", { totalLag: "1500", lagSeconds: 400 }, noSustain({ totalOffsets: 1000 }));
    expect(f.details).toMatchObject({
      breached: "totalOffsets,seconds",
      totalLag: "1500",
      totalOffsets: 1000,
      lagSeconds: 400,
      seconds: 300,
    });
    expect(f.summary).toBe("total lag 1500 (limit 1000), 400 s behind (limit 300 s) for 0 s");
  });

  describe("sustained for a duration", () => {
    // Default: 300 s lag-seconds threshold, held for 2 min.
    const steps = (seq: [number, number][]) => {
      let state: GroupAlertState | null = null;
      const out: { firing: boolean; pendingSince: number | null }[] = [];
      for (const [at, lagSeconds] of seq) {
        const r = evaluateGroup(state, input({ lagSeconds }), rules(), at);
        state = JSON.parse(JSON.stringify(r.state)) as GroupAlertState;
        out.push({ firing: finding(r.findings, "lag").firing, pendingSince: r.state.pendingSince.lag });
      }
      return out;
    };

    test.each([
      {
        label: "sustain not yet reached (1 ms short)",
        seq: [
          [0, 400],
          [2 * MIN - 1, 400],
        ] as [number, number][],
        expected: [
          { firing: false, pendingSince: 0 },
          { firing: false, pendingSince: 0 },
        ],
      },
      {
        label: "sustain reached exactly",
        seq: [
          [0, 400],
          [MIN, 400],
          [2 * MIN, 400],
        ] as [number, number][],
        expected: [
          { firing: false, pendingSince: 0 },
          { firing: false, pendingSince: 0 },
          { firing: true, pendingSince: 0 },
        ],
      },
      {
        label: "a dip below the threshold restarts the clock",
        seq: [
          [0, 400],
          [MIN, 100],
          [2 * MIN, 400],
          [3 * MIN, 400],
          [4 * MIN, 400],
        ] as [number, number][],
        expected: [
          { firing: false, pendingSince: 0 },
          { firing: false, pendingSince: null },
          { firing: false, pendingSince: 2 * MIN },
          { firing: false, pendingSince: 2 * MIN },
          { firing: true, pendingSince: 2 * MIN },
        ],
      },
      {
        label: "firing, then back under: resolves at once",
        seq: [
          [0, 400],
          [2 * MIN, 400],
          [3 * MIN, 10],
        ] as [number, number][],
        expected: [
          { firing: false, pendingSince: 0 },
          { firing: true, pendingSince: 0 },
          { firing: false, pendingSince: null },
        ],
      },
    ])("$label", ({ seq, expected }) => {
      expect(steps(seq)).toEqual(expected);
    });

    test("sustainMs 0 fires on the first evaluation", () => {
      expect(evalOne("lag", { lagSeconds: 400 }, noSustain({})).firing).toBe(true);
    });
  });

  describe("growth rate", () => {
    const run = (points: [number, string][], params: Record<string, unknown>) => {
      let state: GroupAlertState | null = null;
      let last: Finding | undefined;
      for (const [at, totalLag] of points) {
        const r = evaluateGroup(state, input({ totalLag, lagSeconds: null }), noSustain(params), at);
        state = r.state;
        last = finding(r.findings, "lag");
      }
      return { state: state!, last: last! };
    };

    test.each([
      {
        label: "600 offsets in a minute: exactly at 600/min fires",
        points: [
          [0, "0"],
          [MIN, "600"],
        ] as [number, string][],
        limit: 600,
        rate: 600,
        firing: true,
      },
      {
        label: "599/min: no",
        points: [
          [0, "0"],
          [MIN, "599"],
        ] as [number, string][],
        limit: 600,
        rate: 599,
        firing: false,
      },
      {
        label: "one point only: no rate, no fire",
        points: [[0, "5000"]] as [number, string][],
        limit: 1,
        rate: null,
        firing: false,
      },
      {
        label: "shrinking lag has a negative rate",
        points: [
          [0, "1000"],
          [MIN, "400"],
        ] as [number, string][],
        limit: 1,
        rate: -600,
        firing: false,
      },
      {
        label: "the rate spans the last 5 min only (an old spike is forgotten)",
        points: [
          [0, "0"],
          [MIN, "100000"],
          [7 * MIN, "100000"],
          [8 * MIN, "100000"],
        ] as [number, string][],
        limit: 1,
        rate: 0,
        firing: false,
      },
    ])("$label", ({ points, limit, rate, firing }) => {
      const { last } = run(points, { growthPerMin: limit, seconds: null });
      expect(last.details.growthPerMin).toBe(rate);
      expect(last.firing).toBe(firing);
    });

    test("history is bounded in age and count", () => {
      const points = Array.from({ length: 200 }, (_, i): [number, string] => [i * 1000, String(i)]);
      const { state } = run(points, {});
      expect(state.lagHistory).toHaveLength(LAG_HISTORY_MAX);
      expect(state.lagHistory.at(-1)).toEqual({ at: 199_000, totalLag: "199" });
      const sparse = run(
        Array.from({ length: 20 }, (_, i): [number, string] => [i * MIN, "1"]),
        {},
      );
      expect(sparse.state.lagHistory.every((p) => p.at >= 19 * MIN - LAG_GROWTH_WINDOW_MS)).toBe(true);
      expect(sparse.state.lagHistory).toHaveLength(6);
    });
  });
});

describe("status", () => {
  test.each([
    { label: "default STOP: STOP fires", min: undefined, status: "STOP" as const, firing: true },
    { label: "default STOP: STALL does not", min: undefined, status: "STALL" as const, firing: false },
    { label: "min STALL: STOP (worse) fires", min: "STALL", status: "STOP" as const, firing: true },
    { label: "min STALL: STALL (equal) fires", min: "STALL", status: "STALL" as const, firing: true },
    { label: "min STALL: REWIND (milder) does not", min: "STALL", status: "REWIND" as const, firing: false },
    { label: "min WARN: REWIND fires", min: "WARN", status: "REWIND" as const, firing: true },
    { label: "min WARN: OK does not", min: "WARN", status: "OK" as const, firing: false },
    { label: "min WARN: unknown never fires", min: "WARN", status: "unknown" as const, firing: false },
  ])("$label", ({ min, status, firing }) => {
    const r = min ? rules([{ kind: "status", params: { minStatus: min } }]) : rules();
    const f = evalOne("status", { consumerStatus: status }, r);
    expect(f.firing).toBe(firing);
    expect(f.details).toEqual({ status, minStatus: min ?? "STOP" });
    expect(f.summary).toBe(`consumer status ${status}`);
  });
});

describe("emptied", () => {
  test.each([
    { label: "Empty with lag exactly minLag: fires", state: "Empty", totalLag: "1", firing: true },
    { label: "Empty with no lag: fine (everything consumed)", state: "Empty", totalLag: "0", firing: false },
    { label: "Empty with BigInt-size lag", state: "Empty", totalLag: "9223372036854775000", firing: true },
    { label: "Stable with lag: not emptied", state: "Stable", totalLag: "500", firing: false },
    { label: "Dead with lag: not Empty", state: "Dead", totalLag: "500", firing: false },
  ])("$label", ({ state, totalLag, firing }) => {
    const f = evalOne("emptied", { state, totalLag, memberCount: state === "Stable" ? 2 : 0 });
    expect(f.firing).toBe(firing);
    expect(f.details).toMatchObject({ state, totalLag, minLag: 1 });
  });

  test("a group only ever seen Empty did not go Empty: no incident", () => {
    const f = evalOne("emptied", { state: "Empty", totalLag: "500", memberCount: 0, hadMembers: false });
    expect(f).toMatchObject({ firing: false, summary: "never had members while watched" });
    expect(f.details).toMatchObject({ hadMembers: false });
    expect(evalOne("emptied", { state: "Empty", totalLag: "500", hadMembers: true }).firing).toBe(true);
  });

  test("minLag override at the limit", () => {
    const r = rules([{ kind: "emptied", params: { minLag: 100 } }]);
    expect(evalOne("emptied", { state: "Empty", totalLag: "99" }, r).firing).toBe(false);
    expect(evalOne("emptied", { state: "Empty", totalLag: "100" }, r)).toMatchObject({
      firing: true,
      summary: "no members, lag 100 left",
    });
  });
});

test.each([
  { ms: 600_000, text: "10 min" },
  { ms: 90_000, text: "90 s" },
  { ms: 60_000, text: "1 min" },
  { ms: 5_400_000, text: "1 h 30 min" },
  { ms: 3_600_000, text: "1 h" },
  { ms: 0, text: "0 s" },
])("formatDuration($ms) = $text", ({ ms, text }) => {
  expect(formatDuration(ms)).toBe(text);
});
