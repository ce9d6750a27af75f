import { describe, expect, test } from "vitest";

import { parseClustersEnv } from "../../lib/config/cluster-config";

describe("parseClustersEnv", () => {
  test.each([
    { label: "unset", raw: undefined, names: [] },
    { label: "blank", raw: "  ", names: [] },
    { label: "one object instead of an array", raw: '{"name":"a","brokers":"h:9092"}', names: ["a"] },
    { label: "comma-separated brokers", raw: '[{"name":"a","brokers":"h1:9092, h2:9092"}]', names: ["a"] },
    {
      label: "two clusters",
      raw: '[{"name":"a","brokers":["h:1"]},{"name":"b","brokers":["h:2"]}]',
      names: ["a", "b"],
    },
  ])("accepts $label", ({ raw, names }) => {
    expect(parseClustersEnv(raw).map((c) => c.name)).toEqual(names);
  });

  test("applies defaults and splits brokers", () => {
    const [c] = parseClustersEnv('[{"name":"prod","brokers":"k1:9092,k2:9093"}]');
    expect(c).toEqual({
      name: "prod",
      brokers: ["k1:9092", "k2:9093"],
      clientId: "groupwatch",
      pollIntervalMs: 5000,
      sessionTimeoutMs: 45_000,
      maxPollIntervalMs: 300_000,
      commitIntervalMs: 5000,
      enabled: true,
    });
  });

  test.each([
    { label: "not JSON", raw: "[{name:", error: /not valid JSON/ },
    { label: "missing brokers", raw: '[{"name":"a"}]', error: /\[0\.brokers\]/ },
    { label: "broker without port", raw: '[{"name":"a","brokers":"kafka"}]', error: /host:port/ },
    { label: "empty broker list", raw: '[{"name":"a","brokers":""}]', error: /at least one broker/ },
    { label: "markup in the name", raw: '[{"name":"<script>","brokers":"h:1"}]', error: /name may hold/ },
    {
      label: "overlong name",
      raw: JSON.stringify([{ name: "a".repeat(201), brokers: "h:1" }]),
      error: /200/,
    },
    {
      label: "unknown SASL mechanism",
      raw: '[{"name":"a","brokers":"h:1","sasl":{"mechanism":"gssapi","username":"u","password":"p"}}]',
      error: /mechanism/,
    },
    {
      label: "poll interval below 1 s",
      raw: '[{"name":"a","brokers":"h:1","pollIntervalMs":10}]',
      error: /pollIntervalMs/,
    },
    {
      label: "duplicate names",
      raw: '[{"name":"a","brokers":"h:1"},{"name":"a","brokers":"h:2"}]',
      error: /twice/,
    },
  ])("rejects $label", ({ raw, error }) => {
    expect(() => parseClustersEnv(raw)).toThrow(error);
  });

  test("an error message never echoes the SASL password", () => {
    const raw =
      '[{"name":"a","brokers":"bad","sasl":{"mechanism":"plain","username":"u","password":"hunter2-secret"}}]';
    expect(() => parseClustersEnv(raw)).toThrow();
    try {
      parseClustersEnv(raw);
    } catch (e) {
      expect(String(e)).not.toContain("hunter2-secret");
    }
  });
});
