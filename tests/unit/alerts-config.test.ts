import { describe, expect, test } from "vitest";

import {
  compareGlobSpecificity,
  DEFAULT_INCIDENT_CONFIG,
  DEFAULT_RULES,
  globMatch,
  isSilenced,
  parseOverrideParams,
  resolveRules,
  ZIncidentConfig,
  ZRuleOverride,
  type RuleOverride,
  type SilenceRow,
} from "../../lib/domain/alerts";

describe("globMatch", () => {
  test.each([
    { label: "exact", glob: "orders", text: "orders", expected: true },
    { label: "exact, different text", glob: "orders", text: "orders2", expected: false },
    { label: "* matches a run", glob: "orders-*", text: "orders-eu-1", expected: true },
    { label: "* matches nothing", glob: "orders-*", text: "orders-", expected: true },
    { label: "* in the middle", glob: "a*z", text: "abcz", expected: true },
    { label: "* in the middle, wrong end", glob: "a*z", text: "abcy", expected: false },
    { label: "several stars need backtracking", glob: "*a*b*c", text: "xxaxxbxxbxc", expected: true },
    { label: "several stars, no match", glob: "*a*b*c", text: "xxaxxcxxb", expected: false },
    { label: "lone *", glob: "*", text: "", expected: true },
    { label: "? is exactly one character", glob: "g?", text: "g1", expected: true },
    { label: "? does not match none", glob: "g?", text: "g", expected: false },
    { label: "? does not match two", glob: "g?", text: "g12", expected: false },
    { label: "? matches one astral character", glob: "g?", text: "g😀", expected: true },
    { label: ". is literal", glob: "a.c", text: "abc", expected: false },
    { label: ". matches a dot", glob: "a.c", text: "a.c", expected: true },
    { label: "+ is literal", glob: "a+", text: "aaa", expected: false },
    { label: "+ matches a plus", glob: "a+", text: "a+", expected: true },
    { label: "[] is literal, not a class", glob: "[ab]", text: "a", expected: false },
    { label: "[] matches brackets", glob: "[ab]", text: "[ab]", expected: true },
    { label: "() and | are literal", glob: "(a|b)*", text: "(a|b)-x", expected: true },
    { label: "() and | do not alternate", glob: "(a|b)", text: "a", expected: false },
    { label: "backslash is literal", glob: "a\\*", text: "a\\xyz", expected: true },
    { label: "^$ are literal", glob: "^g$", text: "g", expected: false },
    { label: "empty glob matches only empty", glob: "", text: "x", expected: false },
    { label: "case-sensitive", glob: "Orders", text: "orders", expected: false },
  ])("$label: $glob ~ $text", ({ glob, text, expected }) => {
    expect(globMatch(glob, text)).toBe(expected);
  });

  test("pathological input stays fast (no regex backtracking blow-up)", () => {
    const started = performance.now();
    expect(globMatch("*a*a*a*a*a*a*a*a*b", "a".repeat(5000))).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  test.each([
    { label: "more literals is more specific", a: "orders-*", b: "orders-eu-*", sign: -1 },
    { label: "same literals, fewer wildcards is more specific", a: "orders*", b: "orders", sign: -1 },
    { label: "? counts as a wildcard", a: "orders?", b: "orders", sign: -1 },
    { label: "equal", a: "a*", b: "b*", sign: 0 },
  ])("specificity: $label", ({ a, b, sign }) => {
    expect(Math.sign(compareGlobSpecificity(a, b))).toBe(sign);
    expect(Math.sign(compareGlobSpecificity(b, a))).toBe(-sign || 0);
  });
});

describe("defaults", () => {
  test("rule defaults", () => {
    expect(DEFAULT_RULES.storm.params).toEqual({ minEpisodes: 3, windowMs: 600_000 });
    expect(DEFAULT_RULES.stuck.params).toEqual({ afterMs: 300_000 });
    expect(DEFAULT_RULES.lag.params).toEqual({
      totalOffsets: null,
      maxPartitionOffsets: null,
      seconds: 300,
      growthPerMin: null,
      sustainMs: 120_000,
    });
    expect(DEFAULT_RULES.status.params).toEqual({ minStatus: "STOP" });
    expect(DEFAULT_RULES.emptied.params).toEqual({ minLag: 1 });
    expect(Object.values(DEFAULT_RULES).every((r) => r.enabled)).toBe(true);
    expect(DEFAULT_INCIDENT_CONFIG).toEqual({ renotifyMs: 3_600_000 });
  });

  test("incident config: 0 (never) is valid, negative is not", () => {
    expect(ZIncidentConfig.safeParse({ renotifyMs: 0 }).success).toBe(true);
    expect(ZIncidentConfig.safeParse({ renotifyMs: -1 }).success).toBe(false);
  });
});

describe("resolveRules", () => {
  const C = "cluster-1";
  const row = (o: Partial<RuleOverride> & Pick<RuleOverride, "kind">): RuleOverride => ({
    clusterId: null,
    groupGlob: null,
    params: {},
    ...o,
  });

  test("no overrides: the defaults, sourced from 'default'", () => {
    const r = resolveRules([], C, "orders");
    expect(r.storm).toEqual(DEFAULT_RULES.storm);
    expect(r.sources.lag).toEqual(["default"]);
    expect(r.warnings).toEqual([]);
  });

  test("resolving does not mutate the defaults", () => {
    resolveRules([row({ kind: "storm", params: { minEpisodes: 9 } })], C, "g");
    expect(DEFAULT_RULES.storm.params.minEpisodes).toBe(3);
  });

  test.each([
    {
      label: "global overrides default",
      rows: [row({ kind: "storm", params: { minEpisodes: 5 } })],
      expected: 5,
      sources: ["default", "global"],
    },
    {
      label: "cluster-wide overrides global, whatever the row order",
      rows: [
        row({ kind: "storm", clusterId: C, params: { minEpisodes: 6 } }),
        row({ kind: "storm", params: { minEpisodes: 5 } }),
      ],
      expected: 6,
      sources: ["default", "global", "cluster"],
    },
    {
      label: "another cluster's row does not apply",
      rows: [row({ kind: "storm", clusterId: "other", params: { minEpisodes: 6 } })],
      expected: 3,
      sources: ["default"],
    },
    {
      label: "a matching group glob overrides cluster-wide",
      rows: [
        row({ kind: "storm", groupGlob: "ord*", params: { minEpisodes: 7 } }),
        row({ kind: "storm", clusterId: C, params: { minEpisodes: 6 } }),
      ],
      expected: 7,
      sources: ["default", "cluster", "group:ord*"],
    },
    {
      label: "a non-matching glob does not apply",
      rows: [row({ kind: "storm", groupGlob: "pay*", params: { minEpisodes: 7 } })],
      expected: 3,
      sources: ["default"],
    },
    {
      label: "the longer literal glob wins over the shorter one, whatever the order",
      rows: [
        row({ kind: "storm", groupGlob: "orders-*", params: { minEpisodes: 8 } }),
        row({ kind: "storm", groupGlob: "o*", params: { minEpisodes: 7 } }),
      ],
      expected: 8,
      sources: ["default", "group:o*", "group:orders-*"],
    },
    {
      label: "an exact glob wins over a wildcard one with as many literals",
      rows: [
        row({ kind: "storm", groupGlob: "orders-eu", params: { minEpisodes: 9 } }),
        row({ kind: "storm", groupGlob: "orders-eu*", params: { minEpisodes: 8 } }),
      ],
      expected: 9,
      sources: ["default", "group:orders-eu*", "group:orders-eu"],
    },
    {
      label: "same glob: the row scoped to this cluster wins over the any-cluster row",
      rows: [
        row({ kind: "storm", clusterId: C, groupGlob: "orders-*", params: { minEpisodes: 4 } }),
        row({ kind: "storm", groupGlob: "orders-*", params: { minEpisodes: 8 } }),
      ],
      expected: 4,
      sources: ["default", "group:orders-*", "group:orders-*"],
    },
    {
      label: "a glob with regex characters is matched literally",
      rows: [row({ kind: "storm", groupGlob: "orders.(eu)+[1]", params: { minEpisodes: 11 } })],
      expected: 3,
      sources: ["default"],
    },
  ])("$label", ({ rows, expected, sources }) => {
    const r = resolveRules(rows, C, "orders-eu");
    expect(r.storm.params.minEpisodes).toBe(expected);
    expect(r.sources.storm).toEqual(sources);
  });

  test("a glob with regex characters matches the literal group id", () => {
    const rows = [row({ kind: "storm", groupGlob: "orders.(eu)+[1]", params: { minEpisodes: 11 } })];
    expect(resolveRules(rows, C, "orders.(eu)+[1]").storm.params.minEpisodes).toBe(11);
    expect(resolveRules(rows, C, "ordersX(eu)+[1]").storm.params.minEpisodes).toBe(3);
  });

  test("params merge field by field; null is a value, absent inherits", () => {
    const r = resolveRules(
      [
        row({ kind: "lag", params: { totalOffsets: 1000, sustainMs: 0 } }),
        row({ kind: "lag", clusterId: C, params: { seconds: null } }),
        row({ kind: "lag", groupGlob: "orders*", params: { totalOffsets: 5000 } }),
      ],
      C,
      "orders",
    );
    expect(r.lag.params).toEqual({
      totalOffsets: 5000,
      maxPartitionOffsets: null,
      seconds: null,
      growthPerMin: null,
      sustainMs: 0,
    });
  });

  test("enabled and severity: set by a layer, inherited when absent or null", () => {
    const r = resolveRules(
      [
        row({ kind: "emptied", enabled: false }),
        row({ kind: "emptied", clusterId: C, enabled: null, params: { severity: "critical" } }),
        row({ kind: "status", enabled: false }),
        row({ kind: "status", groupGlob: "orders", enabled: true }),
      ],
      C,
      "orders",
    );
    expect(r.emptied).toMatchObject({ enabled: false, severity: "critical" });
    expect(r.status.enabled).toBe(true);
    expect(r.stuck.severity).toBe("critical");
  });

  test("invalid params are ignored with a warning; the row's enabled still applies", () => {
    const r = resolveRules(
      [row({ kind: "storm", enabled: false, params: { minEpisodes: "three", windowMs: 1 } })],
      C,
      "orders",
    );
    expect(r.storm.params).toEqual(DEFAULT_RULES.storm.params);
    expect(r.storm.enabled).toBe(false);
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toMatch(/storm override \(global\) ignored params: .*minEpisodes/);
  });

  test("rows of an unknown kind are skipped", () => {
    const r = resolveRules([row({ kind: "bogus", params: { minEpisodes: 1 } })], C, "orders");
    expect(r.storm.params.minEpisodes).toBe(3);
    expect(r.warnings).toEqual([]);
  });

  test.each([
    { label: "valid partial", kind: "lag" as const, params: { seconds: 60 }, ok: true },
    { label: "unknown key rejected", kind: "lag" as const, params: { second: 60 }, ok: false },
    {
      label: "minStatus must be a known status",
      kind: "status" as const,
      params: { minStatus: "OK" },
      ok: false,
    },
    { label: "minStatus REWIND", kind: "status" as const, params: { minStatus: "REWIND" }, ok: true },
    { label: "emptied minLag 0 rejected", kind: "emptied" as const, params: { minLag: 0 }, ok: false },
    { label: "severity allowed", kind: "stuck" as const, params: { severity: "warning" }, ok: true },
    { label: "bad severity", kind: "stuck" as const, params: { severity: "page" }, ok: false },
  ])("parseOverrideParams: $label", ({ kind, params, ok }) => {
    expect(parseOverrideParams(kind, params).ok).toBe(ok);
  });

  test("ZRuleOverride validates a row for writes", () => {
    expect(
      ZRuleOverride.safeParse({ clusterId: null, groupGlob: "a*", kind: "lag", params: { seconds: 10 } })
        .success,
    ).toBe(true);
    expect(
      ZRuleOverride.safeParse({ clusterId: null, groupGlob: null, kind: "nope", params: {} }).success,
    ).toBe(false);
    expect(
      ZRuleOverride.safeParse({ clusterId: null, groupGlob: null, kind: "lag", params: { seconds: -1 } })
        .success,
    ).toBe(false);
  });
});

describe("isSilenced", () => {
  const C = "cluster-1";
  const s = (o: Partial<SilenceRow> = {}): SilenceRow => ({
    clusterId: null,
    groupGlob: null,
    kind: null,
    startsAt: 1000,
    endsAt: 2000,
    ...o,
  });

  test.each([
    { label: "active, matches everything", rows: [s()], now: 1500, expected: true },
    { label: "starts exactly now (inclusive)", rows: [s()], now: 1000, expected: true },
    { label: "not started yet", rows: [s()], now: 999, expected: false },
    { label: "ends exactly now (exclusive): expired", rows: [s()], now: 2000, expected: false },
    { label: "expired", rows: [s()], now: 5000, expected: false },
    { label: "other kind", rows: [s({ kind: "lag" })], now: 1500, expected: false },
    { label: "same kind", rows: [s({ kind: "storm" })], now: 1500, expected: true },
    { label: "other cluster", rows: [s({ clusterId: "cluster-2" })], now: 1500, expected: false },
    { label: "this cluster", rows: [s({ clusterId: C })], now: 1500, expected: true },
    { label: "group glob matches", rows: [s({ groupGlob: "ord?rs" })], now: 1500, expected: true },
    { label: "group glob does not match", rows: [s({ groupGlob: "pay*" })], now: 1500, expected: false },
    {
      label: "one of several matches",
      rows: [s({ kind: "lag" }), s({ endsAt: 1200 }), s({ groupGlob: "orders" })],
      now: 1500,
      expected: true,
    },
    { label: "no silences", rows: [], now: 1500, expected: false },
  ])("$label", ({ rows, now, expected }) => {
    expect(isSilenced(rows, C, "orders", "storm", now)).toBe(expected);
  });
});
