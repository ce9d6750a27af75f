import { describe, expect, test } from "vitest";

import { escapeSlack, renderNotification, RenderError, type RenderOptions } from "../../lib/alerts/render";
import type { AlertNotification, NotificationEvent } from "../../lib/domain/alerts/notification";

const INCIDENT = "6f1c2b9e-3d4a-4c5b-8e7f-0a1b2c3d4e5f";
const OPENED = "2026-12-01T10:00:00.000Z";
const RESOLVED = "2026-12-01T10:30:00.000Z";
const AT = { trigger: OPENED, renotify: "2026-12-01T10:15:00.000Z", resolve: RESOLVED, test: OPENED };
const SEQ = { trigger: 1, renotify: 2, resolve: 3, test: 1 };

function notification(event: NotificationEvent, over: Partial<AlertNotification> = {}): AlertNotification {
  return {
    version: 1,
    event,
    incidentId: INCIDENT,
    sequence: SEQ[event],
    rule: "storm",
    severity: "critical",
    cluster: { id: "c0ffee00-0000-4000-8000-000000000001", name: "prod-eu" },
    group: { id: "orders" },
    summary: "orders: 4 rebalances in 10 min",
    openedAt: OPENED,
    resolvedAt: event === "resolve" ? RESOLVED : null,
    at: AT[event],
    details: { rebalances: 4, windowMinutes: 10 },
    links: { group: "/clusters/prod-eu/groups/orders", timeline: "/clusters/prod-eu/groups/orders/timeline" },
    ...over,
  };
}

const BASE = "https://groupwatch.example.com";
const TIMELINE = `${BASE}/clusters/prod-eu/groups/orders/timeline`;

function render(n: AlertNotification, opts: RenderOptions): unknown {
  const r = renderNotification(n, opts);
  expect(r.contentType).toBe("application/json");
  return JSON.parse(r.body);
}

describe("generic", () => {
  test.each(["trigger", "renotify", "resolve", "test"] as const)(
    "%s is the versioned document itself",
    (event) => {
      const n = notification(event);
      expect(render(n, { format: "generic" })).toEqual(n);
    },
  );
});

describe("slack", () => {
  const slack = (label: string, emoji: string, event: NotificationEvent) => ({
    text: `${emoji} [${label}] prod-eu / orders: orders: 4 rebalances in 10 min`,
    blocks: [
      {
        type: "section",
        text: { type: "mrkdwn", text: `${emoji} [${label}] *orders: 4 rebalances in 10 min*` },
      },
      {
        type: "section",
        fields: [
          { type: "mrkdwn", text: "*Cluster*\nprod-eu" },
          { type: "mrkdwn", text: "*Group*\norders" },
          { type: "mrkdwn", text: "*Rule*\nstorm" },
          { type: "mrkdwn", text: "*Severity*\ncritical" },
        ],
      },
      { type: "section", text: { type: "mrkdwn", text: "rebalances: 4\nwindowMinutes: 10" } },
      {
        type: "context",
        elements: [
          {
            type: "mrkdwn",
            text:
              event === "resolve"
                ? `opened ${OPENED} · resolved ${RESOLVED} · incident ${INCIDENT} #3`
                : `opened ${OPENED} · incident ${INCIDENT} #${SEQ[event]}`,
          },
        ],
      },
      {
        type: "actions",
        elements: [{ type: "button", text: { type: "plain_text", text: "Open timeline" }, url: TIMELINE }],
      },
    ],
  });
  test.each([
    { event: "trigger" as const, expected: slack("FIRING", ":red_circle:", "trigger") },
    { event: "renotify" as const, expected: slack("STILL FIRING", ":red_circle:", "renotify") },
    { event: "resolve" as const, expected: slack("RESOLVED", ":white_check_mark:", "resolve") },
  ])("$event", ({ event, expected }) => {
    expect(render(notification(event), { format: "slack", baseUrl: BASE })).toEqual(expected);
  });

  test("a relative link without a base URL leaves the button out", () => {
    const msg = render(notification("trigger"), { format: "slack" }) as { blocks: { type: string }[] };
    expect(msg.blocks.map((b) => b.type)).toEqual(["section", "section", "section", "context"]);
  });
});

describe("pagerduty", () => {
  const trigger = (event: NotificationEvent) => ({
    routing_key: "R0UTING",
    event_action: "trigger",
    dedup_key: INCIDENT,
    payload: {
      summary: "orders: 4 rebalances in 10 min",
      source: "prod-eu",
      severity: "critical",
      timestamp: AT[event],
      component: "orders",
      group: "prod-eu",
      class: "storm",
      custom_details: {
        event,
        cluster: "prod-eu",
        group: "orders",
        rule: "storm",
        incident_id: INCIDENT,
        sequence: SEQ[event],
        opened_at: OPENED,
        rebalances: 4,
        windowMinutes: 10,
      },
    },
    client: "groupwatch",
    client_url: TIMELINE,
    links: [{ href: TIMELINE, text: "Group timeline" }],
  });
  test.each([
    { event: "trigger" as const, expected: trigger("trigger") },
    // Re-notify: trigger again with the same dedup key.
    { event: "renotify" as const, expected: trigger("renotify") },
    {
      event: "resolve" as const,
      expected: { routing_key: "R0UTING", event_action: "resolve", dedup_key: INCIDENT },
    },
  ])("$event", ({ event, expected }) => {
    expect(
      render(notification(event), { format: "pagerduty", routingKey: "R0UTING", baseUrl: BASE }),
    ).toEqual(expected);
  });

  test("without a routing key it cannot render", () => {
    expect(() => renderNotification(notification("trigger"), { format: "pagerduty" })).toThrow(RenderError);
  });

  test("a summary over PagerDuty's 1024 characters is cut", () => {
    const body = render(notification("trigger", { summary: "x".repeat(5000) }), {
      format: "pagerduty",
      routingKey: "k",
    }) as { payload: { summary: string } };
    expect(body.payload.summary).toHaveLength(1024);
  });
});

describe("alertmanager", () => {
  const labels = {
    alertname: "KafkaConsumerGroupRebalanceStorm",
    cluster: "prod-eu",
    group: "orders",
    rule: "storm",
    severity: "critical",
  };
  const message = (status: "firing" | "resolved") => ({
    version: "4",
    groupKey: `{}:{incident="${INCIDENT}"}`,
    truncatedAlerts: 0,
    status,
    receiver: "team-hook",
    groupLabels: { alertname: "KafkaConsumerGroupRebalanceStorm" },
    commonLabels: labels,
    commonAnnotations: { summary: "orders: 4 rebalances in 10 min" },
    externalURL: `${BASE}/`,
    alerts: [
      {
        status,
        labels,
        annotations: { summary: "orders: 4 rebalances in 10 min" },
        startsAt: OPENED,
        endsAt: status === "resolved" ? RESOLVED : "0001-01-01T00:00:00Z",
        generatorURL: TIMELINE,
        fingerprint: INCIDENT,
      },
    ],
  });
  test.each([
    { event: "trigger" as const, expected: message("firing") },
    { event: "renotify" as const, expected: message("firing") },
    { event: "resolve" as const, expected: message("resolved") },
  ])("$event", ({ event, expected }) => {
    expect(
      render(notification(event), { format: "alertmanager", baseUrl: BASE, endpointName: "team-hook" }),
    ).toEqual(expected);
  });
});

describe("hostile names", () => {
  const hostile = '<!channel> & <https://evil.example|click> "quoted" \n\u0000 *bold* `code`';
  const n = notification("trigger", {
    group: { id: hostile },
    cluster: { id: "c", name: "<@U123>" },
    summary: `${hostile}: 9 rebalances`,
    details: { note: "<!here>" },
  });

  test.each([
    { label: "ampersand", input: "a & b", expected: "a &amp; b" },
    { label: "angle brackets", input: "<!channel>", expected: "&lt;!channel&gt;" },
    { label: "already an entity", input: "&lt;", expected: "&amp;lt;" },
    { label: "other mrkdwn stays", input: "*x* _y_ `z`", expected: "*x* _y_ `z`" },
  ])("escapeSlack: $label", ({ input, expected }) => {
    expect(escapeSlack(input)).toBe(expected);
  });

  test("slack never carries a raw < or > from a name", () => {
    const body = renderNotification(n, { format: "slack", baseUrl: BASE }).body;
    const texts: string[] = [];
    JSON.parse(body, (k, v: unknown) => {
      if (k === "text" && typeof v === "string") texts.push(v);
      return v;
    });
    expect(texts.length).toBeGreaterThan(3);
    for (const t of texts) {
      expect(t).not.toMatch(/<|>/);
      expect(t).not.toMatch(/&(?!amp;|lt;|gt;)/);
    }
    expect(texts[0]).toContain("&lt;!channel&gt; &amp; &lt;https://evil.example|click&gt;");
    expect(texts[0]).toContain("&lt;@U123&gt;");
  });

  test.each(["generic", "pagerduty", "alertmanager"] as const)(
    "%s keeps the exact id inside valid JSON",
    (format) => {
      const body = renderNotification(n, { format, routingKey: "k" }).body;
      const parsed = JSON.parse(body) as unknown;
      const strings: string[] = [];
      JSON.parse(body, (_k, v: unknown) => {
        if (typeof v === "string") strings.push(v);
        return v;
      });
      expect(parsed).toBeTruthy();
      expect(strings).toContain(hostile);
    },
  );
});
