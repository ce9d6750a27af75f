import { describe, expect, it } from "vitest";

import { GroupRowFilter } from "@/lib/db/queries/groups";
import type { ClusterSnapshot, GroupSnapshot } from "@/lib/domain/snapshot";

import { group, member } from "../fixtures/snapshots";

// Which groups a cycle sends to consumer_group: only the changed ones (change-only writes).

const at = (s: number, groups: GroupSnapshot[]): ClusterSnapshot => ({
  kafkaClusterId: null,
  controllerId: 1,
  brokers: [],
  topics: [],
  groups,
  poll: { startedAt: new Date(1_700_000_000_000 + s * 1000), durationMs: 5, requests: {}, errors: [] },
});
const ids = (gs: GroupSnapshot[]) => gs.map((g) => g.groupId);
const idle = group("idle", { offsets: { "t:0": [5, 10] } });
const busy = (end: number) => group("busy", { members: [member("c-1")], offsets: { "t:0": [5, end] } });

describe("GroupRowFilter", () => {
  it("sends every group first, then only what changed", () => {
    const f = new GroupRowFilter();
    expect(ids(f.changed(at(0, [idle, busy(10)]), new Map()))).toEqual(["idle", "busy"]);
    f.commit();
    expect(ids(f.changed(at(5, [idle, busy(10)]), new Map()))).toEqual([]);
    f.commit();
    expect(ids(f.changed(at(10, [idle, busy(11)]), new Map()))).toEqual(["busy"]);
  });

  it("a state or membership change is a change", () => {
    const f = new GroupRowFilter();
    f.changed(at(0, [busy(10)]), new Map());
    f.commit();
    const rebalancing = { ...busy(10), state: "PreparingRebalance" };
    expect(ids(f.changed(at(5, [rebalancing]), new Map()))).toEqual(["busy"]);
    f.commit();
    const twoMembers = { ...busy(10), members: [member("c-1"), member("c-2")] };
    expect(ids(f.changed(at(10, [twoMembers]), new Map()))).toEqual(["busy"]);
  });

  it("lag in seconds counts when it moved by 1 s and 10 % since the last write", () => {
    const f = new GroupRowFilter();
    f.changed(at(0, [idle]), new Map([["idle", 100]]));
    f.commit();
    expect(ids(f.changed(at(5, [idle]), new Map([["idle", 105]])))).toEqual([]);
    f.commit();
    // Drift accumulates against the last WRITTEN value: 100 → 112 is over 10 % of the larger.
    expect(ids(f.changed(at(10, [idle]), new Map([["idle", 112]])))).toEqual(["idle"]);
  });

  it("forgets everything after a failed write, and drops groups that are gone", () => {
    const f = new GroupRowFilter();
    f.changed(at(0, [idle, busy(10)]), new Map());
    f.forget();
    expect(ids(f.changed(at(5, [idle, busy(10)]), new Map()))).toEqual(["idle", "busy"]);
    f.commit();
    f.changed(at(10, [busy(10)]), new Map());
    f.commit();
    // "idle" vanished and came back (deleted, then revived): written again.
    expect(ids(f.changed(at(15, [idle, busy(10)]), new Map()))).toEqual(["idle"]);
  });
});
