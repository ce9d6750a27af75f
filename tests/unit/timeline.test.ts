import { describe, expect, test } from "vitest";

import type { GroupSnapshot } from "../../lib/domain/snapshot";
import {
  classifyDeparture,
  observeGroup,
  type Episode,
  type GroupTimelineState,
  type StepResult,
  type TimelineConfig,
} from "../../lib/domain/timeline";
import { group, member, tps } from "../fixtures/snapshots";

const cfg: TimelineConfig = {
  pollIntervalMs: 1000,
  sessionTimeoutMs: 10_000,
  maxPollIntervalMs: 30_000,
  commitIntervalMs: 1000,
};
const counts = (entries: Record<string, number> = { t: 2 }) => new Map(Object.entries(entries));

interface Step {
  at: number;
  group: GroupSnapshot | null;
  counts?: Record<string, number>;
}

/** Folds observations (one per second unless `at` says otherwise) and collects every output. */
function run(steps: Step[], initial: GroupTimelineState | null = null, firstPrevAt: number | null = null) {
  let state = initial;
  let prevAt = firstPrevAt;
  const all: StepResult[] = [];
  for (const s of steps) {
    const r = observeGroup(
      state,
      { at: s.at, prevAt, group: s.group, topicPartitionCounts: counts(s.counts) },
      cfg,
    );
    all.push(r);
    state = r.state;
    prevAt = s.at;
  }
  const episodes = new Map<string, Episode>();
  for (const r of all) for (const e of r.episodes) episodes.set(e.key, e);
  for (const r of all) {
    for (const a of r.amendments) {
      const e = episodes.get(a.episodeKey)!;
      e.causes = e.causes.map((c) =>
        c.memberId === a.memberId && c.kind !== "member-joined" ? { ...c, kind: a.kind } : c,
      );
    }
  }
  return {
    state,
    events: all.flatMap((r) => r.events),
    episodes: [...episodes.values()],
    sessions: all.flatMap((r) => r.sessions),
    intervals: all.flatMap((r) => r.intervals),
  };
}

const causeKinds = (e: Episode) => e.causes.map((c) => c.kind).sort();

// A member "a" holding t:0 and t:1, committing as records arrive (lag stays small).
const a = (assignment = [tps("t", 0, 1)]) => member("a-1", { client: "a", assignment, topics: ["t"] });
const b = (assignment = [tps("t", 1)]) => member("b-1", { client: "b", assignment, topics: ["t"] });
const busy = (i: number) =>
  ({ "t:0": [i * 10, i * 10 + 3], "t:1": [i * 10, i * 10 + 3] }) as Record<string, [number, number]>;
const stuck = (i: number) =>
  ({ "t:0": [10, i * 10 + 3], "t:1": [10, i * 10 + 3] }) as Record<string, [number, number]>;
const idle = () => ({ "t:0": [10, 10], "t:1": [10, 10] }) as Record<string, [number, number]>;
const sec = (n: number) => n * 1000;

describe("observeGroup: events and episodes", () => {
  test("first observation when watching starts: a baseline, no events, sessions not 'joined'", () => {
    const r = run([{ at: sec(1), group: group("g", { members: [a()], offsets: busy(1) }) }]);
    expect(r.events).toEqual([]);
    expect(r.episodes).toEqual([]);
    expect(r.sessions).toMatchObject([{ memberId: "a-1", joinedObserved: false, leftAt: null }]);
    expect(r.intervals).toMatchObject([{ state: "Stable", to: null }]);
  });

  test("a group that appears after watching started", () => {
    const r = run([{ at: sec(2), group: group("g", { members: [a()] }) }], null, sec(1));
    expect(r.events.map((e) => e.kind)).toEqual(["group-appeared"]);
    expect(r.sessions[0]!.joinedObserved).toBe(true);
  });

  test.each([
    {
      label: "member joins, rebalance missed entirely between polls (inferred)",
      steps: [
        { at: sec(1), group: group("g", { members: [a()], offsets: busy(1) }) },
        { at: sec(2), group: group("g", { members: [a([tps("t", 0)]), b()], offsets: busy(2) }) },
      ],
      causes: ["member-joined"],
      inProgress: false,
      moved: [{ topic: "t", partition: 1, from: "a-1", to: "b-1" }],
    },
    {
      label: "member joins, rebalance observed in progress",
      steps: [
        { at: sec(1), group: group("g", { members: [a()], offsets: busy(1) }) },
        { at: sec(2), group: group("g", { state: "PreparingRebalance", members: [a()], offsets: busy(2) }) },
        { at: sec(3), group: group("g", { members: [a([tps("t", 0)]), b()], offsets: busy(3) }) },
      ],
      causes: ["member-joined", "unknown"].slice(0, 1),
      inProgress: true,
      moved: [{ topic: "t", partition: 1, from: "a-1", to: "b-1" }],
    },
    {
      label: "partition added to a subscribed topic",
      steps: [
        { at: sec(1), group: group("g", { members: [a()], offsets: busy(1) }) },
        {
          at: sec(2),
          counts: { t: 3 },
          group: group("g", { members: [a([tps("t", 0, 1, 2)])], offsets: busy(2) }),
        },
      ],
      causes: ["partition-count-changed"],
      inProgress: false,
      moved: [{ topic: "t", partition: 2, from: null, to: "a-1" }],
    },
    {
      label: "subscription changed",
      steps: [
        { at: sec(1), group: group("g", { members: [a()], offsets: busy(1) }) },
        {
          at: sec(2),
          counts: { t: 2, u: 1 },
          group: group("g", {
            members: [
              member("a-1", { client: "a", topics: ["t", "u"], assignment: [tps("t", 0, 1), tps("u", 0)] }),
            ],
            offsets: busy(2),
          }),
        },
      ],
      causes: ["subscription-changed"],
      inProgress: false,
      moved: [{ topic: "u", partition: 0, from: null, to: "a-1" }],
    },
    {
      label: "partition added while a member leaves (two causes, one episode)",
      steps: [
        { at: sec(1), group: group("g", { members: [a([tps("t", 0)]), b()], offsets: busy(1) }) },
        { at: sec(2), group: group("g", { members: [a([tps("t", 0)]), b()], offsets: busy(2) }) },
        {
          at: sec(3),
          counts: { t: 3 },
          group: group("g", { members: [a([tps("t", 0, 1, 2)])], offsets: busy(3) }),
        },
      ],
      causes: ["member-left", "partition-count-changed"],
      inProgress: false,
      moved: [
        { topic: "t", partition: 1, from: "b-1", to: "a-1" },
        { topic: "t", partition: 2, from: null, to: "a-1" },
      ],
    },
    {
      label: "rolling restart step: one member leaves and another joins between polls",
      steps: [
        { at: sec(1), group: group("g", { members: [a([tps("t", 0)]), b()], offsets: busy(1) }) },
        { at: sec(2), group: group("g", { members: [a([tps("t", 0)]), b()], offsets: busy(2) }) },
        {
          at: sec(3),
          group: group("g", {
            members: [
              a([tps("t", 0)]),
              member("c-1", { client: "c", assignment: [tps("t", 1)], topics: ["t"] }),
            ],
            offsets: busy(3),
          }),
        },
      ],
      causes: ["member-joined", "member-left"],
      inProgress: false,
      moved: [{ topic: "t", partition: 1, from: "b-1", to: "c-1" }],
    },
  ])("$label", ({ steps, causes, inProgress, moved }) => {
    const r = run(steps);
    expect(r.episodes).toHaveLength(1);
    const e = r.episodes[0]!;
    expect(causeKinds(e)).toEqual([...causes].sort());
    expect(e.observedInProgress).toBe(inProgress);
    expect(e.rebalance).toBe(true);
    expect(e.endedBy).toBe(steps.at(-1)!.at);
    expect(e.startedAfter).toBeLessThan(e.detectedAt);
    expect(e.partitionsMoved).toEqual(moved);
  });

  test.each([
    {
      label: "assignment-changed names the partitions that moved",
      next: group("g", { members: [a([tps("t", 0)]), b()], offsets: busy(2) }),
      counts: { t: 2 },
      kinds: ["assignment-changed", "member-joined"],
    },
    {
      label: "subscription-changed names the topics before and after",
      next: group("g", {
        members: [member("a-1", { client: "a", topics: ["t", "u"], assignment: [tps("t", 0, 1)] })],
        offsets: busy(2),
      }),
      counts: { t: 2, u: 1 },
      kinds: ["subscription-changed"],
    },
    {
      label: "partition-count-changed names the topic and counts",
      next: group("g", { members: [a()], offsets: busy(2) }),
      counts: { t: 5 },
      kinds: ["partition-count-changed"],
    },
  ])("event: $label", ({ next, counts: c, kinds }) => {
    const r = run([
      { at: sec(1), group: group("g", { members: [a()], offsets: busy(1) }) },
      { at: sec(2), group: next, counts: c as Record<string, number> },
    ]);
    expect(r.events.map((e) => e.kind).sort()).toEqual(kinds);
    const details = r.events.map((e) => e.details);
    if (kinds.includes("assignment-changed"))
      expect(details).toContainEqual({
        moved: 1,
        partitions: [{ topic: "t", partition: 1, from: "a-1", to: "b-1" }],
      });
    if (kinds.includes("subscription-changed"))
      expect(details).toContainEqual({ before: ["t"], after: ["t", "u"] });
    if (kinds.includes("partition-count-changed"))
      expect(details).toContainEqual({ topic: "t", from: 2, to: 5 });
  });

  test("a rebalance with nothing visible to explain it is 'unknown', never a guess", () => {
    const r = run([
      { at: sec(1), group: group("g", { members: [a()], offsets: busy(1) }) },
      { at: sec(2), group: group("g", { state: "CompletingRebalance", members: [a()], offsets: busy(2) }) },
      { at: sec(3), group: group("g", { members: [a()], offsets: busy(3) }) },
    ]);
    expect(r.episodes).toHaveLength(1);
    expect(causeKinds(r.episodes[0]!)).toEqual(["unknown"]);
    expect(r.episodes[0]!.causes[0]!.confidence).toBe("low");
  });

  test("KIP-848 epoch advanced with nothing else visible: an inferred episode with an unknown cause", () => {
    const k = (epoch: number) =>
      group("g", {
        type: "consumer",
        epoch,
        members: [member("a-1", { client: "a", assignment: [tps("t", 0, 1)], epoch })],
        offsets: busy(epoch),
      });
    const r = run([
      { at: sec(1), group: k(3) },
      { at: sec(2), group: k(5) },
    ]);
    expect(r.events.map((e) => e.kind)).toContain("epoch-advanced");
    expect(r.episodes).toHaveLength(1);
    expect(r.episodes[0]).toMatchObject({ epochBefore: 3, epochAfter: 5, observedInProgress: false });
    expect(causeKinds(r.episodes[0]!)).toEqual(["unknown"]);
  });

  test("static member restarted within its session timeout: member replaced, no rebalance", () => {
    const s = (id: string) =>
      member(id, { client: "s", instance: "inst-1", assignment: [tps("t", 0, 1)], topics: ["t"] });
    const r = run([
      { at: sec(1), group: group("g", { members: [s("s-old")], offsets: busy(1) }) },
      { at: sec(2), group: group("g", { members: [s("s-new")], offsets: busy(2) }) },
    ]);
    expect(r.events.map((e) => e.kind)).toEqual(["member-replaced"]);
    expect(r.episodes).toHaveLength(1);
    expect(r.episodes[0]).toMatchObject({ rebalance: false, partitionsMoved: [] });
    expect(causeKinds(r.episodes[0]!)).toEqual(["static-member-restarted"]);
    expect(r.sessions.filter((x) => x.leftAt !== null)).toMatchObject([
      { memberId: "s-old", leftHow: "static-member-restarted" },
    ]);
  });

  test("all members leave: the group goes Empty and every session closes", () => {
    const r = run([
      { at: sec(1), group: group("g", { members: [a([tps("t", 0)]), b()], offsets: busy(1) }) },
      { at: sec(2), group: group("g", { members: [a([tps("t", 0)]), b()], offsets: busy(2) }) },
      { at: sec(3), group: group("g", { state: "Empty", members: [], offsets: busy(3) }) },
    ]);
    expect(r.events.filter((e) => e.kind === "member-left")).toHaveLength(2);
    expect(r.events.find((e) => e.kind === "state-changed")?.details).toEqual({
      from: "Stable",
      to: "Empty",
    });
    expect(r.state!.sessions).toEqual([]);
    expect(r.intervals.map((i) => [i.state, i.to])).toEqual([
      ["Stable", null],
      ["Stable", sec(3)],
      ["Empty", null],
    ]);
    expect(r.episodes[0]!.membersAfter).toEqual([]);
  });

  test("group deleted: event, sessions and interval closed", () => {
    const r = run([
      { at: sec(1), group: group("g", { members: [a()], offsets: busy(1) }) },
      { at: sec(2), group: null },
    ]);
    expect(r.state).toBeNull();
    expect(r.events.map((e) => e.kind)).toEqual(["group-deleted"]);
    expect(r.sessions).toMatchObject([{}, { memberId: "a-1", leftHow: "group-deleted", leftAt: sec(2) }]);
    expect(r.intervals.at(-1)!.to).toBe(sec(2));
  });

  test("offsets rewound (a reset) is an event", () => {
    const r = run([
      { at: sec(1), group: group("g", { offsets: { "t:0": [50, 60] } }) },
      { at: sec(2), group: group("g", { offsets: { "t:0": [5, 60] } }) },
    ]);
    expect(r.events).toMatchObject([
      { kind: "offsets-rewound", details: { topic: "t", partition: 0, from: "50", to: "5" } },
    ]);
  });

  test("event and episode keys are stable: replaying the same observations gives the same keys", () => {
    const steps = [
      { at: sec(1), group: group("g", { members: [a()], offsets: busy(1) }) },
      { at: sec(2), group: group("g", { members: [a([tps("t", 0)]), b()], offsets: busy(2) }) },
    ];
    const x = run(steps);
    const y = run(steps);
    expect(x.events.map((e) => e.key)).toEqual(y.events.map((e) => e.key));
    expect(x.episodes.map((e) => e.key)).toEqual(y.episodes.map((e) => e.key));
    expect(new Set(x.events.map((e) => e.key)).size).toBe(x.events.length);
  });
});

describe("observeGroup: why a member left", () => {
  // b holds t:1 (and a holds t:0); b departs at `leaveAt` after its commits did what `offsets` says.
  const scenario = (
    offsets: (i: number) => Record<string, [number, number]>,
    leaveAt: number,
    rejoin?: "same-step" | "later",
  ) => {
    const steps: Step[] = [];
    for (let i = 1; i < leaveAt; i++)
      steps.push({
        at: sec(i),
        group: group("g", { members: [a([tps("t", 0)]), b()], offsets: offsets(i) }),
      });
    const back = member("b-2", { client: "b", assignment: [tps("t", 1)], topics: ["t"] });
    steps.push({
      at: sec(leaveAt),
      group: group("g", {
        members: rejoin === "same-step" ? [a([tps("t", 0)]), back] : [a([tps("t", 0, 1)])],
        offsets: offsets(leaveAt),
      }),
    });
    if (rejoin === "later") {
      steps.push({
        at: sec(leaveAt + 2),
        group: group("g", { members: [a([tps("t", 0)]), back], offsets: offsets(leaveAt + 2) }),
      });
    }
    return run(steps);
  };
  const leftCause = (r: ReturnType<typeof run>) => r.episodes[0]!.causes.find((c) => c.memberId === "b-1")!;

  test.each([
    {
      label: "clean leave: commits advanced until it left, with records waiting",
      offsets: busy,
      leaveAt: 5,
      rejoin: undefined,
      kind: "member-left",
      confidence: "high",
    },
    {
      label: "crash: commits stopped a session timeout before it vanished while lag grew",
      offsets: stuck,
      leaveAt: 12,
      rejoin: undefined,
      kind: "member-crashed",
      confidence: "high",
    },
    {
      label: "crash on an idle topic: cannot tell, says unknown with the reason",
      offsets: idle,
      leaveAt: 12,
      rejoin: undefined,
      kind: "unknown",
      confidence: "low",
    },
    {
      label: "poll timeout: stalled for max.poll.interval, the same client rejoined in the same poll",
      offsets: stuck,
      leaveAt: 32,
      rejoin: "same-step" as const,
      kind: "poll-timeout",
      confidence: "high",
    },
    {
      label: "poll timeout: the rejoin comes a poll later (the cause is amended)",
      offsets: stuck,
      leaveAt: 32,
      rejoin: "later" as const,
      kind: "poll-timeout",
      confidence: "high",
    },
  ])("$label", ({ offsets, leaveAt, rejoin, kind, confidence }) => {
    const r = scenario(offsets, leaveAt, rejoin);
    const c = leftCause(r);
    expect(c.kind).toBe(kind);
    if (rejoin !== "later") expect(c.confidence).toBe(confidence);
    expect(c.evidence.join(" ")).toContain("b-1");
    if (kind === "unknown") expect(c.evidence.join(" ")).toMatch(/look alike/);
  });

  test("a member that held no partitions leaves: unknown, with the reason", () => {
    const r = run([
      {
        at: sec(1),
        group: group("g", {
          members: [a(), member("x-1", { client: "x", topics: ["t"] })],
          offsets: busy(1),
        }),
      },
      { at: sec(2), group: group("g", { members: [a()], offsets: busy(2) }) },
    ]);
    const c = r.episodes[0]!.causes.find((x) => x.memberId === "x-1")!;
    expect(c.kind).toBe("unknown");
    expect(c.evidence.join(" ")).toMatch(/held no partitions/);
  });
});

describe("classifyDeparture", () => {
  test.each([
    { label: "stall near zero", stallMs: 500, backlog: true, rejoined: false, expected: "member-left" },
    {
      label: "stall at the session timeout",
      stallMs: 10_500,
      backlog: true,
      rejoined: false,
      expected: "member-crashed",
    },
    {
      label: "stall at max.poll.interval with a rejoin",
      stallMs: 30_200,
      backlog: true,
      rejoined: true,
      expected: "poll-timeout",
    },
    {
      label: "stall at max.poll.interval, no rejoin: a consumer stuck past every timeout",
      stallMs: 30_200,
      backlog: true,
      rejoined: false,
      expected: "member-crashed",
    },
    {
      label: "stall between a clean leave and a crash",
      stallMs: 6_000,
      backlog: true,
      rejoined: false,
      expected: "unknown",
    },
    { label: "no backlog", stallMs: 10_500, backlog: false, rejoined: false, expected: "unknown" },
  ])("$label", ({ stallMs, backlog, rejoined, expected }) => {
    expect(classifyDeparture({ stallMs, backlog, rejoined, heldPartitions: 1 }, cfg).kind).toBe(expected);
  });

  test("session timeout and max.poll.interval too close to tell apart, even with a rejoin: unknown", () => {
    const close: TimelineConfig = { ...cfg, sessionTimeoutMs: 10_000, maxPollIntervalMs: 11_000 };
    const v = classifyDeparture({ stallMs: 10_500, backlog: true, rejoined: true, heldPartitions: 1 }, close);
    expect(v.kind).toBe("unknown");
    expect(v.reason).toMatch(/member-crashed and poll-timeout/);
  });

  test("timeouts too close to tell apart at the poll resolution: unknown, naming both", () => {
    const close: TimelineConfig = {
      ...cfg,
      sessionTimeoutMs: 3000,
      commitIntervalMs: 2000,
      pollIntervalMs: 2000,
    };
    const v = classifyDeparture({ stallMs: 3000, backlog: true, rejoined: false, heldPartitions: 2 }, close);
    expect(v.kind).toBe("unknown");
    expect(v.reason).toMatch(/member-left and member-crashed/);
  });
});
