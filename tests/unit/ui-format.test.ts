import { describe, expect, test } from "vitest";

import {
  formatAgo,
  formatCompact,
  formatDuration,
  formatLagSeconds,
  formatOffset,
  formatUtc,
  toNumber,
} from "../../components/format";

describe("formatDuration", () => {
  test.each([
    { label: "null", ms: null, expected: "–" },
    { label: "NaN", ms: NaN, expected: "–" },
    { label: "sub-second", ms: 850, expected: "850 ms" },
    { label: "zero", ms: 0, expected: "0 ms" },
    { label: "seconds with a decimal under 10 s", ms: 1234, expected: "1.2 s" },
    { label: "whole seconds from 10 s", ms: 12_345, expected: "12 s" },
    { label: "minutes and padded seconds", ms: 245_000, expected: "4 min 05 s" },
    { label: "hours and padded minutes", ms: 3 * 3_600_000 + 12 * 60_000, expected: "3 h 12 min" },
    { label: "days and hours", ms: 2 * 86_400_000 + 4 * 3_600_000, expected: "2 d 4 h" },
    { label: "negative", ms: -1500, expected: "-1.5 s" },
  ])("$label", ({ ms, expected }) => {
    expect(formatDuration(ms)).toBe(expected);
  });

  test("lag seconds: null is unknown, seconds become a duration", () => {
    expect(formatLagSeconds(null)).toBe("–");
    expect(formatLagSeconds(90)).toBe("1 min 30 s");
  });
});

describe("formatOffset", () => {
  test.each([
    { label: "null", v: null, expected: "–" },
    { label: "small", v: "999", expected: "999" },
    { label: "thousands", v: "1234567", expected: "1,234,567" },
    { label: "beyond 2^53 stays exact", v: "9223372036854775807", expected: "9,223,372,036,854,775,807" },
    { label: "bigint", v: 12345n, expected: "12,345" },
    { label: "number", v: 1000, expected: "1,000" },
    { label: "negative", v: "-1000", expected: "-1,000" },
    { label: "not a number", v: "12abc", expected: "–" },
    { label: "markup is not a number", v: "<b>1</b>", expected: "–" },
  ])("$label", ({ v, expected }) => {
    expect(formatOffset(v)).toBe(expected);
  });
});

describe("formatCompact", () => {
  test.each([
    { v: 950, expected: "950" },
    { v: 1000, expected: "1k" },
    { v: 12_345, expected: "12k" },
    { v: 1_234, expected: "1.2k" },
    { v: 4_500_000, expected: "4.5M" },
    { v: 2e9, expected: "2G" },
    { v: null, expected: "–" },
  ])("$v → $expected", ({ v, expected }) => {
    expect(formatCompact(v)).toBe(expected);
  });
});

describe("formatAgo and formatUtc", () => {
  test.each([
    { ms: 500, expected: "just now" },
    { ms: 12_000, expected: "12 s ago" },
    { ms: 5 * 60_000 + 10_000, expected: "5 min ago" },
    { ms: 3 * 3_600_000, expected: "3 h ago" },
    { ms: 3 * 86_400_000, expected: "3 d ago" },
    { ms: -9_000, expected: "in 9 s" },
    { ms: -1_500, expected: "just now" },
  ])("$ms ms → $expected", ({ ms, expected }) => {
    expect(formatAgo(ms)).toBe(expected);
  });

  test("UTC for tooltips, without milliseconds", () => {
    expect(formatUtc("2026-11-30T10:04:05.123Z")).toBe("2026-11-30 10:04:05 UTC");
    expect(formatUtc("nonsense")).toBe("invalid time");
  });

  test("toNumber for charts", () => {
    expect(toNumber("42")).toBe(42);
    expect(toNumber(null)).toBeNull();
    expect(toNumber("x")).toBeNull();
  });
});
