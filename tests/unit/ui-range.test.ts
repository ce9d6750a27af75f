import { describe, expect, test } from "vitest";

import {
  fromLocalInput,
  parseRange,
  rangeKey,
  rangeParams,
  resolveRange,
  toLocalInput,
  withRange,
  type RangeSel,
} from "../../components/range";

const params = (q: string) => new URLSearchParams(q);
const NOW = Date.parse("2026-11-30T12:00:00Z");

describe("parseRange", () => {
  test.each([
    { label: "nothing: the fallback", q: "", sel: { kind: "preset", key: "1h" }, problem: null },
    { label: "a preset", q: "range=6h", sel: { kind: "preset", key: "6h" }, problem: null },
    { label: "7 days", q: "range=7d", sel: { kind: "preset", key: "7d" }, problem: null },
    {
      label: "an unknown preset",
      q: "range=2y",
      sel: { kind: "preset", key: "1h" },
      problem: 'unknown range "2y"',
    },
    {
      label: "a custom window",
      q: "from=2026-11-30T10:00:00Z&to=2026-11-30T11:00:00Z",
      sel: {
        kind: "custom",
        from: Date.parse("2026-11-30T10:00:00Z"),
        to: Date.parse("2026-11-30T11:00:00Z"),
      },
      problem: null,
    },
    {
      label: "custom wins over a preset",
      q: "range=15m&from=1700000000000&to=1700000600000",
      sel: { kind: "custom", from: 1700000000000, to: 1700000600000 },
      problem: null,
    },
    {
      label: "from after to",
      q: "from=2026-11-30T11:00:00Z&to=2026-11-30T10:00:00Z",
      sel: { kind: "preset", key: "1h" },
      problem: "from must be before to",
    },
    {
      label: "only one bound",
      q: "from=2026-11-30T11:00:00Z",
      sel: { kind: "preset", key: "1h" },
      problem: "from and to must both be valid times",
    },
    {
      label: "an impossible date",
      q: "from=2026-02-30&to=2026-03-02",
      sel: { kind: "preset", key: "1h" },
      problem: "from and to must both be valid times",
    },
    {
      label: "over 31 days",
      q: "from=2026-01-01&to=2026-03-01",
      sel: { kind: "preset", key: "1h" },
      problem: "the window may span 31 days at most",
    },
  ])("$label", ({ q, sel, problem }) => {
    expect(parseRange(params(q))).toEqual({ sel, problem });
  });

  test("another fallback", () => {
    expect(parseRange(params(""), "24h").sel).toEqual({ kind: "preset", key: "24h" });
  });
});

describe("resolveRange", () => {
  test("a preset ends now and is live", () => {
    expect(resolveRange({ kind: "preset", key: "15m" }, NOW)).toEqual({
      from: NOW - 900_000,
      to: NOW,
      live: true,
    });
  });
  test("a custom window in the past is fixed", () => {
    expect(resolveRange({ kind: "custom", from: 1, to: 2 }, NOW)).toEqual({ from: 1, to: 2, live: false });
  });
  test("a custom window reaching the future stays live", () => {
    expect(resolveRange({ kind: "custom", from: NOW - 10, to: NOW + 10 }, NOW).live).toBe(true);
  });
});

describe("URL encoding", () => {
  const custom: RangeSel = {
    kind: "custom",
    from: Date.parse("2026-11-30T10:00:00Z"),
    to: Date.parse("2026-11-30T11:30:00.500Z"),
  };

  test("parameters of a selection", () => {
    expect(rangeParams({ kind: "preset", key: "24h" })).toEqual({ range: "24h" });
    expect(rangeParams(custom)).toEqual({ from: "2026-11-30T10:00:00Z", to: "2026-11-30T11:30:00.500Z" });
  });

  test("round trip through the URL", () => {
    expect(parseRange(params(withRange("", custom))).sel).toEqual(custom);
    expect(parseRange(params(withRange("", { kind: "preset", key: "7d" }))).sel).toEqual({
      kind: "preset",
      key: "7d",
    });
  });

  test("other parameters are kept; the fallback preset is left out", () => {
    expect(withRange("q=x&from=1&to=2", { kind: "preset", key: "6h" })).toBe("q=x&range=6h");
    expect(withRange("q=x&range=6h", { kind: "preset", key: "1h" })).toBe("q=x");
  });

  test("keys: presets by name, custom by bounds", () => {
    expect(rangeKey({ kind: "preset", key: "1h" })).toBe("1h");
    expect(rangeKey({ kind: "custom", from: 1, to: 2 })).toBe("1-2");
  });

  test("datetime-local values in the viewer's zone round-trip to the minute", () => {
    const t = Date.parse("2026-11-30T10:07:00Z");
    expect(fromLocalInput(toLocalInput(t))).toBe(t);
    expect(fromLocalInput("")).toBeNull();
    expect(fromLocalInput("2026-11-30")).toBeNull();
  });
});
