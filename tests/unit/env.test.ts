import { describe, expect, test } from "vitest";

import { parseEnv } from "../../lib/env.js";

describe("parseEnv", () => {
  test("defaults for an empty environment", () => {
    const e = parseEnv({});
    expect(e.DATABASE_URL).toBeUndefined();
    expect(e.PORT).toBe(3000);
    expect(e.GROUPWATCH_DATA_DIR).toBe(".data");
    expect(e.LOG_LEVEL).toBe("info");
    expect(e.GROUPWATCH_LOCAL_KAFKA).toBe("auto");
  });

  test("accepts durations for retention and re-notify, 0 for never", () => {
    const e = parseEnv({ GROUPWATCH_RETENTION_TIMELINE: "30d", GROUPWATCH_ALERT_RENOTIFY: "0" });
    expect(e.GROUPWATCH_RETENTION_TIMELINE).toBe("30d");
    expect(e.GROUPWATCH_ALERT_RENOTIFY).toBe("0");
    expect(e.GROUPWATCH_DELIVER_WEBHOOKS).toBe("true");
  });

  test("empty strings count as unset", () => {
    expect(parseEnv({ DATABASE_URL: "", PORT: "" }).DATABASE_URL).toBeUndefined();
  });

  test.each([
    { label: "a MySQL URL", vars: { DATABASE_URL: "mysql://x" }, error: /DATABASE_URL/ },
    { label: "a port out of range", vars: { PORT: "70000" }, error: /PORT/ },
    { label: "a short secret key", vars: { GROUPWATCH_SECRET_KEY: "short" }, error: /GROUPWATCH_SECRET_KEY/ },
    { label: "an unknown log level", vars: { LOG_LEVEL: "loud" }, error: /LOG_LEVEL/ },
    {
      label: "a retention that is not a duration",
      vars: { GROUPWATCH_RETENTION_LAG_RAW: "a while" },
      error: /GROUPWATCH_RETENTION_LAG_RAW: must be a duration/,
    },
    {
      label: "a re-notify of -1h",
      vars: { GROUPWATCH_ALERT_RENOTIFY: "-1h" },
      error: /GROUPWATCH_ALERT_RENOTIFY/,
    },
    {
      label: "a public URL without scheme",
      vars: { GROUPWATCH_PUBLIC_URL: "example.com" },
      error: /PUBLIC_URL/,
    },
    { label: "deliver webhooks = maybe", vars: { GROUPWATCH_DELIVER_WEBHOOKS: "maybe" }, error: /DELIVER/ },
  ])("rejects $label", ({ vars, error }) => {
    expect(() => parseEnv(vars)).toThrow(error);
  });

  test("lists every bad variable in one error", () => {
    expect(() => parseEnv({ PORT: "x", LOG_LEVEL: "loud" })).toThrow(
      /PORT[\s\S]*LOG_LEVEL|LOG_LEVEL[\s\S]*PORT/,
    );
  });
});
