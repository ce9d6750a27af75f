import { afterEach, describe, expect, test, vi } from "vitest";

import {
  ALLOW_ANY_HOST,
  checkWebhookUrl,
  parseAllowedHosts,
  webhookPolicyFromEnv,
  type WebhookUrlPolicy,
} from "../../lib/alerts/url-policy";

const listed: WebhookUrlPolicy = {
  allowedHosts: ["hooks.slack.com", "*.example.com", "::1", "[2001:db8::1]", "10.0.0.5"],
};

describe("checkWebhookUrl", () => {
  test.each([
    { label: "https", url: "https://hooks.slack.com/services/T/B/X", policy: ALLOW_ANY_HOST, ok: true },
    {
      label: "http with port and query",
      url: "http://10.1.2.3:8080/h?x=1",
      policy: ALLOW_ANY_HOST,
      ok: true,
    },
    { label: "ftp", url: "ftp://hooks.slack.com/x", policy: ALLOW_ANY_HOST, error: /http or https, not ftp/ },
    { label: "file", url: "file:///etc/passwd", policy: ALLOW_ANY_HOST, error: /http or https, not file/ },
    { label: "javascript", url: "javascript:alert(1)", policy: ALLOW_ANY_HOST, error: /http or https/ },
    {
      label: "user:pass@",
      url: "https://user:pass@hooks.slack.com/x",
      policy: ALLOW_ANY_HOST,
      error: /credentials/,
    },
    {
      label: "user only",
      url: "https://user@hooks.slack.com/x",
      policy: ALLOW_ANY_HOST,
      error: /credentials/,
    },
    { label: "relative", url: "/hook", policy: ALLOW_ANY_HOST, error: /not a valid absolute URL/ },
    { label: "garbage", url: "not a url", policy: ALLOW_ANY_HOST, error: /not a valid absolute URL/ },
    { label: "listed host", url: "https://hooks.slack.com/x", policy: listed, ok: true },
    { label: "uppercase host", url: "https://HOOKS.Slack.COM/x", policy: listed, ok: true },
    { label: "trailing dot", url: "https://hooks.slack.com./x", policy: listed, ok: true },
    { label: "unlisted host", url: "https://evil.com/x", policy: listed, error: /evil\.com is not allowed/ },
    {
      label: "listed name as a prefix",
      url: "https://hooks.slack.com.evil.com/x",
      policy: listed,
      ok: false,
    },
    { label: "wildcard subdomain", url: "https://alerts.example.com/x", policy: listed, ok: true },
    { label: "wildcard deep subdomain", url: "https://a.b.example.com/x", policy: listed, ok: true },
    { label: "wildcard uppercase", url: "https://ALERTS.EXAMPLE.COM/x", policy: listed, ok: true },
    { label: "wildcard does not match the apex", url: "https://example.com/x", policy: listed, ok: false },
    { label: "wildcard suffix trick", url: "https://badexample.com/x", policy: listed, ok: false },
    { label: "IPv6 literal listed bare", url: "http://[::1]:9000/x", policy: listed, ok: true },
    { label: "IPv6 literal listed in brackets", url: "http://[2001:DB8::1]/x", policy: listed, ok: true },
    { label: "IPv6 literal not listed", url: "http://[::2]/x", policy: listed, error: /::2 is not allowed/ },
    { label: "IPv4 listed", url: "http://10.0.0.5/x", policy: listed, ok: true },
    { label: "IPv4 in another spelling", url: "http://0x0a.0.0.5/x", policy: listed, ok: true },
    { label: "ftp even when listed", url: "ftp://hooks.slack.com/x", policy: listed, ok: false },
  ])("$label", ({ url, policy, ok, error }) => {
    const r = checkWebhookUrl(url, policy);
    if (error) {
      expect(r.ok).toBe(false);
      expect(r.ok ? "" : r.error).toMatch(error);
    } else {
      expect(r.ok).toBe(ok);
    }
  });
});

describe("allow-list parsing", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  test.each([
    { label: "unset", value: undefined, expected: null },
    { label: "empty", value: "", expected: null },
    { label: "only commas and blanks", value: " , ,", expected: null },
    {
      label: "trimmed and lower-cased",
      value: " Hooks.Slack.com ,*.Example.com,[::1] ",
      expected: ["hooks.slack.com", "*.example.com", "::1"],
    },
  ])("$label", ({ value, expected }) => {
    expect(parseAllowedHosts(value)).toEqual(expected);
  });

  test("webhookPolicyFromEnv reads GROUPWATCH_WEBHOOK_ALLOWED_HOSTS", () => {
    vi.stubEnv("GROUPWATCH_WEBHOOK_ALLOWED_HOSTS", "events.pagerduty.com,*.example.com");
    expect(webhookPolicyFromEnv()).toEqual({ allowedHosts: ["events.pagerduty.com", "*.example.com"] });
    vi.stubEnv("GROUPWATCH_WEBHOOK_ALLOWED_HOSTS", "");
    expect(webhookPolicyFromEnv()).toEqual({ allowedHosts: null });
  });
});
