import { describe, expect, test } from "vitest";

import { groupLag, partitionLag, tpKey } from "../../lib/domain/lag";
import type { CommittedOffset } from "../../lib/domain/snapshot";

const commit = (topic: string, partition: number, offset: bigint | null): CommittedOffset => ({
  topic,
  partition,
  offset,
  leaderEpoch: null,
  metadata: null,
});
const ends = (entries: [string, number, bigint | null][]) =>
  new Map(entries.map(([t, p, o]) => [tpKey(t, p), o] as const));

describe("partitionLag", () => {
  test.each([
    { label: "behind", committed: 10n, end: 25n, expected: 15n },
    { label: "caught up", committed: 25n, end: 25n, expected: 0n },
    { label: "commit ahead of a stale log-end offset", committed: 30n, end: 25n, expected: 0n },
    { label: "no committed offset", committed: null, end: 25n, expected: null },
    { label: "no log-end offset (partition unreadable)", committed: 10n, end: null, expected: null },
    {
      label: "beyond 2^53 stays exact",
      committed: 9_007_199_254_740_993n,
      end: 9_223_372_036_854_775_807n,
      expected: 9_223_372_036_854_775_807n - 9_007_199_254_740_993n,
    },
  ])("$label", ({ committed, end, expected }) => {
    expect(partitionLag(committed, end)).toBe(expected);
  });
});

describe("groupLag", () => {
  test.each([
    {
      label: "empty group with no commits",
      offsets: [],
      assigned: [],
      logEnd: ends([]),
      expected: { total: 0n, max: null, unknownPartitions: 0, partitions: 0 },
    },
    {
      label: "sum and max over partitions",
      offsets: [commit("t", 0, 5n), commit("t", 1, 10n), commit("u", 0, 0n)],
      assigned: [],
      logEnd: ends([
        ["t", 0, 10n],
        ["t", 1, 30n],
        ["u", 0, 1n],
      ]),
      expected: { total: 26n, max: 20n, unknownPartitions: 0, partitions: 3 },
    },
    {
      label: "assigned partition without a commit is unknown, not zero",
      offsets: [commit("t", 0, 5n)],
      assigned: [{ topic: "t", partitions: [0, 1] }],
      logEnd: ends([
        ["t", 0, 5n],
        ["t", 1, 100n],
      ]),
      expected: { total: 0n, max: 0n, unknownPartitions: 1, partitions: 2 },
    },
    {
      label: "commit on a deleted topic (no log-end offset)",
      offsets: [commit("gone", 0, 5n)],
      assigned: [],
      logEnd: ends([]),
      expected: { total: 0n, max: null, unknownPartitions: 1, partitions: 1 },
    },
  ])("$label", ({ offsets, assigned, logEnd, expected }) => {
    const lag = groupLag(offsets, assigned, logEnd);
    expect({
      total: lag.total,
      max: lag.max,
      unknownPartitions: lag.unknownPartitions,
      partitions: lag.partitions.length,
    }).toEqual(expected);
  });

  test("partitions come sorted by topic then partition", () => {
    const lag = groupLag([commit("b", 1, 0n), commit("a", 2, 0n), commit("b", 0, 0n)], [], ends([]));
    expect(lag.partitions.map((p) => `${p.topic}-${p.partition}`)).toEqual(["a-2", "b-0", "b-1"]);
  });
});
