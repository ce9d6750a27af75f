import { describe, expect, test } from "vitest";

import {
  backoffDelayMs,
  classifyStatus,
  DEFAULT_RETRY_POLICY,
  parseRetryAfter,
  retryDelayMs,
} from "../../lib/alerts/retry";

const NOW = Date.UTC(2026, 11, 1, 10, 0, 0);

describe("classifyStatus", () => {
  test.each([
    { status: 200, expected: "delivered" },
    { status: 202, expected: "delivered" },
    { status: 204, expected: "delivered" },
    { status: 301, expected: "failed" },
    { status: 400, expected: "failed" },
    { status: 401, expected: "failed" },
    { status: 404, expected: "failed" },
    { status: 408, expected: "retry" },
    { status: 410, expected: "failed" },
    { status: 429, expected: "retry" },
    { status: 500, expected: "retry" },
    { status: 502, expected: "retry" },
    { status: 503, expected: "retry" },
    { status: 599, expected: "retry" },
  ])("$status → $expected", ({ status, expected }) => {
    expect(classifyStatus(status)).toBe(expected);
  });
});

describe("backoff", () => {
  test.each([
    { label: "after the first attempt", attempt: 1, random: 0, expected: 1000 },
    { label: "doubles", attempt: 2, random: 0, expected: 2000 },
    { label: "doubles again", attempt: 4, random: 0, expected: 8000 },
    { label: "capped at 5 min", attempt: 12, random: 0, expected: 300_000 },
    { label: "capped for huge attempt counts", attempt: 10_000, random: 0, expected: 300_000 },
    { label: "jitter takes up to 20 % off", attempt: 2, random: 0.5, expected: 1800 },
    { label: "jitter at the cap", attempt: 20, random: 0.999, expected: 240_060 },
  ])("$label", ({ attempt, random, expected }) => {
    expect(backoffDelayMs(attempt, DEFAULT_RETRY_POLICY, random)).toBe(expected);
  });
});

describe("Retry-After", () => {
  test.each([
    { label: "absent", value: null, expected: null },
    { label: "seconds", value: "120", expected: 120_000 },
    { label: "zero", value: "0", expected: 0 },
    { label: "HTTP date", value: new Date(NOW + 30_000).toUTCString(), expected: 30_000 },
    { label: "HTTP date in the past", value: new Date(NOW - 30_000).toUTCString(), expected: 0 },
    { label: "garbage", value: "soon", expected: null },
    { label: "negative", value: "-5", expected: null },
  ])("$label", ({ value, expected }) => {
    expect(parseRetryAfter(value, NOW)).toBe(expected);
  });

  test.each([
    { label: "longer than the backoff wins", retryAfter: 30_000, expected: 30_000 },
    { label: "shorter than the backoff does not hurry", retryAfter: 10, expected: 1000 },
    { label: "capped", retryAfter: 3600_000, expected: 300_000 },
  ])("retryDelayMs: $label", ({ retryAfter, expected }) => {
    expect(retryDelayMs(1, retryAfter, DEFAULT_RETRY_POLICY, 0)).toBe(expected);
  });
});
