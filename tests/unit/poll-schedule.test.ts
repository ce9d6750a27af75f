import { describe, expect, test } from "vitest";

import { foldPollOutcome, nextPollDelayMs, truncate } from "../../lib/domain/poll-schedule";

describe("nextPollDelayMs", () => {
  test.each([
    {
      label: "healthy cluster polls at its interval",
      failures: 0,
      interval: 5000,
      max: 60_000,
      expected: 5000,
    },
    { label: "first failure doubles", failures: 1, interval: 5000, max: 60_000, expected: 10_000 },
    { label: "third failure is 8x", failures: 3, interval: 1000, max: 60_000, expected: 8000 },
    { label: "backoff is capped", failures: 10, interval: 5000, max: 60_000, expected: 60_000 },
    {
      label: "huge failure counts do not overflow",
      failures: 10_000,
      interval: 5000,
      max: 60_000,
      expected: 60_000,
    },
    {
      label: "interval above the cap is kept",
      failures: 4,
      interval: 120_000,
      max: 60_000,
      expected: 120_000,
    },
    { label: "negative counts act as healthy", failures: -1, interval: 2000, max: 60_000, expected: 2000 },
  ])("$label", ({ failures, interval, max, expected }) => {
    expect(nextPollDelayMs(failures, { intervalMs: interval, maxBackoffMs: max })).toBe(expected);
  });
});

describe("foldPollOutcome", () => {
  test.each([
    {
      label: "success resets failures",
      prev: 4,
      outcome: { ok: true, error: null },
      expected: { state: "ok", consecutiveFailures: 0, lastError: null },
    },
    {
      label: "failure counts up",
      prev: 2,
      outcome: { ok: false, error: "ECONNREFUSED" },
      expected: { state: "error", consecutiveFailures: 3, lastError: "ECONNREFUSED" },
    },
    {
      label: "failure without a message",
      prev: 0,
      outcome: { ok: false, error: null },
      expected: { state: "error", consecutiveFailures: 1, lastError: "unknown error" },
    },
  ])("$label", ({ prev, outcome, expected }) => {
    expect(foldPollOutcome(prev, outcome)).toEqual(expected);
  });

  test("a huge error message is bounded", () => {
    const r = foldPollOutcome(0, { ok: false, error: "x".repeat(10_000) });
    expect(r.lastError!.length).toBe(2000);
    expect(truncate("short", 10)).toBe("short");
  });
});
