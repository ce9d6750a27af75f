import { describe, expect, it } from "vitest";

import { DEFAULT_RETENTION, parseDuration, retentionFrom } from "@/lib/config/retention";

describe("parseDuration", () => {
  it.each([
    ["90s", 90_000],
    ["30m", 1_800_000],
    ["6h", 21_600_000],
    ["7d", 604_800_000],
    ["2w", 1_209_600_000],
    ["1500", 1500],
    ["1.5h", 5_400_000],
    [" 6H ", 21_600_000],
  ])("%s", (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });
  it.each(["", "six hours", "-1h", "0", "1y", "1h30m"])("rejects %j", (text) => {
    expect(() => parseDuration(text)).toThrow(/duration|positive/);
  });
});

describe("retentionFrom", () => {
  it("defaults", () => {
    expect(retentionFrom({})).toEqual(DEFAULT_RETENTION);
  });
  it("reads each kind", () => {
    const r = retentionFrom({ GROUPWATCH_RETENTION_LAG_RAW: "1h", GROUPWATCH_RETENTION_TIMELINE: "30d" });
    expect(r.lagRawMs).toBe(3_600_000);
    expect(r.timelineMs).toBe(30 * 86_400_000);
  });
  it("names the bad variable", () => {
    expect(() => retentionFrom({ GROUPWATCH_RETENTION_ALERTS: "soon" })).toThrow(
      /GROUPWATCH_RETENTION_ALERTS/,
    );
  });
  it("requires the lag tiers in order", () => {
    expect(() => retentionFrom({ GROUPWATCH_RETENTION_LAG_RAW: "30d" })).toThrow(/LAG_RAW <= _LAG_MINUTE/);
  });
});
