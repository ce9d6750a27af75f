// The format-independent notification an incident change produces. Decided by the pure core
// (lib/domain/alerts), stored in the outbox as JSON, rendered per endpoint format at delivery
// (generic JSON, Slack, PagerDuty Events v2, Alertmanager).

export type RuleKind = "storm" | "stuck" | "lag" | "status" | "emptied";
export const RULE_KINDS: readonly RuleKind[] = ["storm", "stuck", "lag", "status", "emptied"];

export type NotificationEvent = "trigger" | "renotify" | "resolve" | "test";

export type Severity = "warning" | "critical";

export interface AlertNotification {
  /** Schema version of this document. */
  version: 1;
  event: NotificationEvent;
  /** Stable incident id (uuid); PagerDuty's dedup key, Alertmanager's fingerprint. */
  incidentId: string;
  /** 1 for the trigger, then +1 per re-notify and for the resolve. */
  sequence: number;
  rule: RuleKind;
  severity: Severity;
  cluster: { id: string; name: string };
  group: { id: string };
  /** One line a human reads first, e.g. "orders: 4 rebalances in 10 min". */
  summary: string;
  /** ISO-8601 times. */
  openedAt: string;
  resolvedAt: string | null;
  at: string;
  /** The numbers that fired the rule (and the latest ones), by name. */
  details: Record<string, number | string | boolean | null>;
  /** Absolute or base-relative links to the group's timeline around the incident. */
  links: { group: string; timeline: string };
}
