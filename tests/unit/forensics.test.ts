import { describe, expect, test } from "vitest";

import {
  mdText,
  renderMarkdown,
  summarize,
  type ForensicsEpisode,
  type ForensicsInput,
} from "../../lib/domain/forensics";
import type { Cause } from "../../lib/domain/timeline";

const T0 = Date.parse("2026-11-30T10:00:00Z");
const cause = (kind: Cause["kind"], extra: Partial<Cause> = {}): Cause => ({
  kind,
  confidence: "high",
  evidence: [`${kind} seen`],
  ...extra,
});
const episode = (
  groupId: string,
  at: number,
  causes: Cause[],
  extra: Partial<ForensicsEpisode> = {},
): ForensicsEpisode => ({
  groupId,
  startedAfter: at - 1000,
  detectedAt: at,
  endedBy: at + 2000,
  observedInProgress: false,
  rebalance: true,
  causes,
  membersBefore: ["a", "b"],
  membersAfter: ["a"],
  partitionsMoved: [{ topic: "t", partition: 1, from: "b", to: "a" }],
  ...extra,
});
const input = (episodes: ForensicsEpisode[], extra: Partial<ForensicsInput> = {}): ForensicsInput => ({
  cluster: "prod",
  from: T0,
  to: T0 + 3_600_000,
  episodes,
  events: [],
  ...extra,
});

describe("summarize", () => {
  test.each([
    {
      label: "an empty window",
      episodes: [],
      expected: { rebalances: 0, groups: 0, membersLost: 0, longest: null },
    },
    {
      label: "a crash and a join in one group",
      episodes: [
        episode("g1", T0 + 10_000, [cause("member-crashed", { memberId: "b" })]),
        episode("g1", T0 + 20_000, [cause("member-joined", { memberId: "c" })], { endedBy: T0 + 30_000 }),
      ],
      expected: { rebalances: 2, groups: 1, membersLost: 1, longest: { groupId: "g1", ms: 11_000 } },
    },
    {
      label: "a departure of unknown cause still counts as a member lost",
      episodes: [episode("g1", T0, [cause("unknown", { memberId: "b" })])],
      expected: { rebalances: 1, groups: 1, membersLost: 1, longest: { groupId: "g1", ms: 3000 } },
    },
    {
      label: "a static member replaced without a rebalance is not a rebalance",
      episodes: [
        episode("g2", T0, [cause("static-member-restarted", { memberId: "s" })], { rebalance: false }),
      ],
      expected: { rebalances: 0, groups: 1, membersLost: 0, longest: null },
    },
    {
      label: "an episode still open has no duration yet",
      episodes: [episode("g3", T0, [cause("member-joined")], { endedBy: null })],
      expected: { rebalances: 1, groups: 1, membersLost: 0, longest: null },
    },
  ])("$label", ({ episodes, expected }) => {
    const s = summarize(input(episodes));
    expect({
      rebalances: s.rebalances,
      groups: s.groups.length,
      membersLost: s.membersLost,
      longest: s.longest,
    }).toEqual(expected);
  });

  test("groups come most-rebalanced first with causes counted", () => {
    const s = summarize(
      input([
        episode("quiet", T0, [cause("member-joined")]),
        episode("busy", T0 + 1, [cause("member-left", { memberId: "x" }), cause("member-joined")]),
        episode("busy", T0 + 2, [cause("member-left", { memberId: "y" })]),
      ]),
    );
    expect(s.groups.map((g) => [g.groupId, g.rebalances, g.causes])).toEqual([
      ["busy", 2, { "member-left": 2, "member-joined": 1 }],
      ["quiet", 1, { "member-joined": 1 }],
    ]);
    expect(s.causes).toEqual({ "member-joined": 2, "member-left": 2 });
  });
});

describe("renderMarkdown", () => {
  test("names each rebalance with its cause and evidence, in time order", () => {
    const md = renderMarkdown(
      input(
        [
          episode("payments", T0 + 60_000, [cause("member-crashed", { memberId: "b", clientId: "pay-2" })]),
          episode("orders", T0 + 30_000, [cause("partition-count-changed", { topic: "orders" })], {
            observedInProgress: true,
          }),
        ],
        { peakLag: { payments: "1200" } },
      ),
    );
    expect(md).toContain("# Rebalance forensics: prod");
    expect(md).toContain("- Rebalances: 2 in 2 group(s)");
    expect(md).toContain("| payments | 1 | 1 | ≤ 3\\.0 s | 1200 | member-crashed 1 |".replace("\\.", "."));
    const orders = md.indexOf("**orders**");
    const payments = md.indexOf("**payments**: rebalance");
    expect(orders).toBeGreaterThan(0);
    expect(payments).toBeGreaterThan(orders);
    expect(md).toContain("**member-crashed** client pay\\-2 (confidence high)");
    expect(md).toContain("observed in progress");
  });

  test("untrusted ids cannot inject markup or break the table", () => {
    const md = renderMarkdown(
      input([episode("evil|<img src=x>*", T0, [cause("member-joined", { clientId: "a\nb" })])]),
    );
    expect(md).not.toMatch(/(^|[^\\])<img/); // only the escaped form \\<img, shown as text
    expect(md).toContain("evil\\|\\<img src=x\\>\\*");
    expect(md).not.toMatch(/client a\nb/);
  });

  test("an empty window says so", () => {
    expect(renderMarkdown(input([]))).toContain("Nothing happened in this window.");
  });

  test.each([
    { label: "markdown punctuation is escaped", raw: "a_b*c", expected: "a\\_b\\*c" },
    { label: "newlines become spaces", raw: "a\r\nb", expected: "a b" },
    { label: "long ids are bounded", raw: "x".repeat(300), expected: `${"x".repeat(199)}…` },
  ])("mdText: $label", ({ raw, expected }) => {
    expect(mdText(raw)).toBe(expected);
  });
});
