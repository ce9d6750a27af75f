import type { AlertNotification, NotificationEvent, RuleKind } from "../domain/alerts/notification";

// The outbox stores the format-independent AlertNotification; these pure functions turn it into
// what each kind of receiver expects. Every name in a notification (cluster, group id, summary,
// details) is untrusted: group ids come from whoever runs a Kafka client.

export const WEBHOOK_FORMATS = ["generic", "slack", "pagerduty", "alertmanager"] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

export interface RenderOptions {
  format: WebhookFormat;
  /** PagerDuty Events v2 routing key (opened from the endpoint's sealed copy). */
  routingKey?: string | null;
  /** Makes base-relative links absolute; without it relative links are left out. */
  baseUrl?: string | null;
  /** Alertmanager's `receiver` field. */
  endpointName?: string | null;
}

export interface RenderedWebhook {
  body: string;
  contentType: string;
}

export class RenderError extends Error {}

const JSON_TYPE = "application/json";

export function renderNotification(n: AlertNotification, opts: RenderOptions): RenderedWebhook {
  switch (opts.format) {
    case "generic":
      return { body: JSON.stringify(n), contentType: JSON_TYPE };
    case "slack":
      return { body: JSON.stringify(slackMessage(n, opts)), contentType: JSON_TYPE };
    case "pagerduty":
      return { body: JSON.stringify(pagerDutyEvent(n, opts)), contentType: JSON_TYPE };
    case "alertmanager":
      return { body: JSON.stringify(alertmanagerMessage(n, opts)), contentType: JSON_TYPE };
  }
}

function truncate(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

function absoluteLink(link: string, baseUrl: string | null | undefined): string | null {
  if (/^https?:\/\//i.test(link)) return link;
  if (!baseUrl) return null;
  try {
    return new URL(link, baseUrl).toString();
  } catch {
    return null;
  }
}

// --- Slack incoming webhook -----------------------------------------------------------------

/** Slack's required escaping of text in mrkdwn and plain fields: only &, < and > (so an
 *  untrusted group id cannot become `<!channel>` or a link). */
export function escapeSlack(s: string): string {
  return s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

const SLACK_LABEL: Record<NotificationEvent, string> = {
  trigger: "FIRING",
  renotify: "STILL FIRING",
  resolve: "RESOLVED",
  test: "TEST",
};

function slackEmoji(n: AlertNotification): string {
  if (n.event === "resolve") return ":white_check_mark:";
  if (n.event === "test") return ":information_source:";
  return n.severity === "critical" ? ":red_circle:" : ":large_orange_circle:";
}

// Escape after truncating so an entity is never cut in half.
const slackText = (s: string, max: number) => escapeSlack(truncate(s, max));

function slackMessage(n: AlertNotification, opts: RenderOptions) {
  const head = `${slackEmoji(n)} [${SLACK_LABEL[n.event]}]`;
  const details = Object.entries(n.details).map(([k, v]) => `${k}: ${v === null ? "unknown" : String(v)}`);
  const timeline = absoluteLink(n.links.timeline, opts.baseUrl);
  const times = [`opened ${n.openedAt}`, ...(n.resolvedAt ? [`resolved ${n.resolvedAt}`] : [])];
  return {
    text: `${head} ${slackText(n.cluster.name, 200)} / ${slackText(n.group.id, 500)}: ${slackText(n.summary, 1000)}`,
    blocks: [
      { type: "section", text: { type: "mrkdwn", text: `${head} *${slackText(n.summary, 2500)}*` } },
      {
        type: "section",
        fields: [
          { type: "mrkdwn", text: `*Cluster*\n${slackText(n.cluster.name, 1000)}` },
          { type: "mrkdwn", text: `*Group*\n${slackText(n.group.id, 1000)}` },
          { type: "mrkdwn", text: `*Rule*\n${n.rule}` },
          { type: "mrkdwn", text: `*Severity*\n${n.severity}` },
        ],
      },
      ...(details.length > 0
        ? [{ type: "section", text: { type: "mrkdwn", text: slackText(details.join("\n"), 2900) } }]
        : []),
      {
        type: "context",
        elements: [
          {
            type: "mrkdwn",
            text: `${times.join(" · ")} · incident ${n.incidentId} #${n.sequence}`,
          },
        ],
      },
      ...(timeline && timeline.length <= 3000
        ? [
            {
              type: "actions",
              elements: [
                { type: "button", text: { type: "plain_text", text: "Open timeline" }, url: timeline },
              ],
            },
          ]
        : []),
    ],
  };
}

// --- PagerDuty Events API v2 ----------------------------------------------------------------

function pagerDutyEvent(n: AlertNotification, opts: RenderOptions) {
  if (!opts.routingKey) throw new RenderError("pagerduty endpoint has no routing key");
  // A re-notify is another trigger with the same dedup key: PagerDuty folds it into the incident.
  if (n.event === "resolve") {
    return { routing_key: opts.routingKey, event_action: "resolve", dedup_key: n.incidentId };
  }
  const timeline = absoluteLink(n.links.timeline, opts.baseUrl);
  return {
    routing_key: opts.routingKey,
    event_action: "trigger",
    dedup_key: n.incidentId,
    payload: {
      summary: truncate(n.summary, 1024),
      source: truncate(n.cluster.name, 255),
      severity: n.severity,
      timestamp: n.at,
      component: truncate(n.group.id, 255),
      group: truncate(n.cluster.name, 255),
      class: n.rule,
      custom_details: {
        event: n.event,
        cluster: n.cluster.name,
        group: n.group.id,
        rule: n.rule,
        incident_id: n.incidentId,
        sequence: n.sequence,
        opened_at: n.openedAt,
        ...n.details,
      },
    },
    client: "groupwatch",
    ...(timeline ? { client_url: timeline, links: [{ href: timeline, text: "Group timeline" }] } : {}),
  };
}

// --- Alertmanager webhook (version 4) -------------------------------------------------------

export const ALERT_NAMES: Record<RuleKind, string> = {
  storm: "KafkaConsumerGroupRebalanceStorm",
  stuck: "KafkaConsumerGroupStuck",
  lag: "KafkaConsumerGroupLag",
  status: "KafkaConsumerGroupStatus",
  emptied: "KafkaConsumerGroupEmptied",
};

/** Alertmanager's "no end time" for a firing alert. */
const ZERO_TIME = "0001-01-01T00:00:00Z";

function alertmanagerMessage(n: AlertNotification, opts: RenderOptions) {
  const status = n.event === "resolve" ? "resolved" : "firing";
  const labels = {
    alertname: ALERT_NAMES[n.rule],
    cluster: n.cluster.name,
    group: n.group.id,
    rule: n.rule,
    severity: n.severity,
  };
  const annotations = { summary: n.summary };
  const external = opts.baseUrl ? absoluteLink("/", opts.baseUrl) : null;
  return {
    version: "4",
    groupKey: `{}:{incident="${n.incidentId}"}`,
    truncatedAlerts: 0,
    status,
    receiver: opts.endpointName ?? "groupwatch",
    groupLabels: { alertname: labels.alertname },
    commonLabels: labels,
    commonAnnotations: annotations,
    externalURL: external ?? "",
    alerts: [
      {
        status,
        labels,
        annotations,
        startsAt: n.openedAt,
        endsAt: status === "resolved" ? (n.resolvedAt ?? n.at) : ZERO_TIME,
        generatorURL: absoluteLink(n.links.timeline, opts.baseUrl) ?? "",
        fingerprint: n.incidentId,
      },
    ],
  };
}
