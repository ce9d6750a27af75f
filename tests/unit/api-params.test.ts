import { describe, expect, it } from "vitest";
import { z } from "zod";

import { forensicsFilename, ZForensicsQuery } from "../../lib/api/forensics";
import { ZGroupListQuery } from "../../lib/api/groups";
import { ZLagQuery } from "../../lib/api/lag";
import { HOUR_MS, parseTime, queryObject, resolveWindow, ZGroupId } from "../../lib/api/params";

const T = Date.parse("2026-11-30T10:00:00Z");

describe("parseTime", () => {
  it.each([
    { label: "ISO with Z", text: "2026-11-30T10:00:00Z", expected: T },
    { label: "ISO with milliseconds", text: "2026-11-30T10:00:00.250Z", expected: T + 250 },
    { label: "ISO with an offset", text: "2026-11-30T12:00:00+02:00", expected: T },
    { label: "ISO with a compact offset", text: "2026-11-30T05:00:00-0500", expected: T },
    { label: "ISO without an offset is UTC", text: "2026-11-30T10:00", expected: T },
    {
      label: "a date alone is UTC midnight",
      text: "2026-11-30",
      expected: Date.parse("2026-11-30T00:00:00Z"),
    },
    { label: "epoch milliseconds", text: String(T), expected: T },
    { label: "epoch 0", text: "0", expected: 0 },
    { label: "surrounding blanks", text: " 2026-11-30T10:00:00Z ", expected: T },
    { label: "a leap day", text: "2028-02-29", expected: Date.parse("2028-02-29T00:00:00Z") },
  ])("reads $label", ({ text, expected }) => {
    expect(parseTime(text)).toBe(expected);
  });

  it.each([
    { label: "garbage", text: "yesterday-ish" },
    { label: "February 30th (Date.parse rolls it over)", text: "2026-02-30" },
    { label: "hour 24", text: "2026-11-30T24:00:00Z" },
    { label: "month 13", text: "2026-13-01" },
    { label: "a negative epoch", text: "-1000" },
    { label: "epoch beyond what a Date holds", text: "9999999999999999" },
    { label: "a locale date", text: "Nov 30 2026" },
    { label: "SQL", text: "1; DROP TABLE cluster" },
    { label: "empty", text: "" },
    { label: "not a leap year", text: "2026-02-29" },
  ])("rejects $label", ({ text }) => {
    expect(parseTime(text)).toBeNull();
  });
});

describe("resolveWindow", () => {
  const run = (w: { from?: Date; to?: Date }, names?: { from: string; to: string }) =>
    z
      .object({})
      .transform((_v, ctx) => resolveWindow(w, T, ctx, names ? { names } : {}))
      .safeParse({});

  it.each([
    { label: "no bounds: the last hour", w: {}, from: T - HOUR_MS, to: T },
    {
      label: "only to: the hour before it",
      w: { to: new Date(T - 5000) },
      from: T - 5000 - HOUR_MS,
      to: T - 5000,
    },
    { label: "only from: until now", w: { from: new Date(T - 60_000) }, from: T - 60_000, to: T },
    {
      label: "exactly 31 days",
      w: { from: new Date(T - 31 * 24 * HOUR_MS), to: new Date(T) },
      from: T - 31 * 24 * HOUR_MS,
      to: T,
    },
  ])("accepts $label", ({ w, from, to }) => {
    const r = run(w);
    expect(r.success).toBe(true);
    expect(r.data?.from.getTime()).toBe(from);
    expect(r.data?.to.getTime()).toBe(to);
  });

  it.each([
    {
      label: "an inverted range",
      w: { from: new Date(T), to: new Date(T - 1) },
      message: "from must be before to",
    },
    { label: "an empty range", w: { from: new Date(T), to: new Date(T) }, message: "from must be before to" },
    {
      label: "a range over 31 days",
      w: { from: new Date(T - 31 * 24 * HOUR_MS - 1), to: new Date(T) },
      message: "the window may span 31 days at most",
    },
    {
      label: "only from, in the future",
      w: { from: new Date(T + 1000) },
      message: "from must be before to",
    },
  ])("rejects $label", ({ w, message }) => {
    const r = run(w);
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe(message);
  });

  it("names the bounds as the caller does (the CLI's --from/--to)", () => {
    const r = run({ from: new Date(T), to: new Date(T - 1) }, { from: "--from", to: "--to" });
    expect(r.error?.issues[0]?.message).toBe("--from must be before --to");
  });
});

describe("queryObject", () => {
  it.each([
    { label: "plain values", qs: "a=1&b=x", values: { a: "1", b: "x" }, repeated: [] },
    { label: "empty values mean not given", qs: "a=&b=x", values: { b: "x" }, repeated: [] },
    { label: "a repeated parameter", qs: "a=1&a=2", values: { a: "2" }, repeated: ["a"] },
    {
      label: "a repeatable parameter",
      qs: "group=a&group=b&group=",
      values: { group: ["a", "b"] },
      repeated: [],
    },
  ])("$label", ({ qs, values, repeated }) => {
    expect(queryObject(new URLSearchParams(qs), ["group"])).toEqual({ values, repeated });
  });
});

describe("query schemas", () => {
  const issue = (r: { success: boolean; error?: z.ZodError }) =>
    r.error?.issues.map((i) => i.message).join("; ");

  it.each([
    { label: "limit over the maximum", q: { limit: "100000" }, message: "limit may be 500 at most" },
    { label: "limit not a number", q: { limit: "10; drop" }, message: "limit must be a whole number" },
    { label: "limit zero", q: { limit: "0" }, message: "limit must be at least 1" },
    { label: "an unknown sort", q: { sort: "DROP TABLE" }, message: /sort must be one of lag, lagSeconds/ },
    { label: "an unknown state", q: { state: "Happy" }, message: /state must be one of Empty/ },
    { label: "an unknown parameter", q: { sorting: "lag" }, message: /Unrecognized key/ },
    {
      label: "includeDeleted not a boolean",
      q: { includeDeleted: "yes" },
      message: "includeDeleted must be true or false",
    },
  ])("groups: rejects $label", ({ q, message }) => {
    const r = ZGroupListQuery.safeParse(q);
    expect(r.success).toBe(false);
    expect(issue(r)).toMatch(message);
  });

  it("groups: defaults", () => {
    expect(ZGroupListQuery.parse({})).toEqual({ sort: "lag", limit: 100, includeDeleted: false });
  });

  it.each([
    {
      label: "1 s steps over a day (86,400 points)",
      q: { from: "2026-11-29T10:00:00Z", to: "2026-11-30T10:00:00Z", step: "1" },
    },
    { label: "a zero step", q: { step: "0" } },
    { label: "a fractional step", q: { step: "1.5" } },
  ])("lag: rejects $label", ({ q }) => {
    expect(ZLagQuery.safeParse(q).success).toBe(false);
  });

  it("lag: picks a default step of at most ~500 points", () => {
    const q = ZLagQuery.parse({ from: "2026-11-01T00:00:00Z", to: "2026-12-01T00:00:00Z" });
    expect(q.stepMs).toBe(7_200_000); // 30 days / 500 = 5184 s, rounded up to 2 h
    expect((q.to.getTime() - q.from.getTime()) / q.stepMs).toBeLessThanOrEqual(500);
  });

  it("forensics: groups repeat, the format is checked", () => {
    const q = ZForensicsQuery.parse({ group: ["a", "b"], format: "md" });
    expect(q.group).toEqual(["a", "b"]);
    expect(ZForensicsQuery.safeParse({ format: "pdf" }).success).toBe(false);
  });

  it("group ids: 10,000 characters at most", () => {
    expect(ZGroupId.safeParse("x".repeat(10_000)).success).toBe(true);
    expect(ZGroupId.safeParse("x".repeat(10_001)).error?.issues[0]?.message).toBe(
      "a group id may be 10,000 characters at most",
    );
  });
});

describe("forensicsFilename", () => {
  it.each([
    { label: "a plain name", cluster: "prod-eu", expected: "groupwatch-prod-eu-20261130T100000Z.md" },
    { label: "spaces", cluster: "prod eu 1", expected: "groupwatch-prod_eu_1-20261130T100000Z.md" },
    {
      label: "quotes and path parts",
      cluster: 'a"/../b\r\n',
      expected: "groupwatch-a_.._b_-20261130T100000Z.md",
    },
  ])("$label", ({ cluster, expected }) => {
    expect(forensicsFilename(cluster, new Date(T))).toBe(expected);
  });
});
