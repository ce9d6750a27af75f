import { randomUUID } from "node:crypto";

import { z } from "zod";

import { WEBHOOK_FORMATS } from "../../alerts/render";
import { checkWebhookUrl, type WebhookUrlPolicy } from "../../alerts/url-policy";
import type { AlertNotification } from "../../domain/alerts/notification";
import { seal } from "../../secrets";
import type { PrismaClient } from "../client";
import { enqueueNotification, idempotencyKey, latestAttemptPerEndpoint, type LastAttempt } from "./outbox";

// Webhook endpoints. Secrets (HMAC secret, PagerDuty routing key) are sealed on the way in and
// never leave this module: the public shape says only whether one is set.

export const ZWebhookFormat = z.enum(WEBHOOK_FORMATS);

const ZName = z.string().trim().min(1, "name is required").max(200);
const ZUrl = z.string().trim().min(1, "url is required").max(2000);
/** null removes the secret; omitted keeps it (on update). */
const ZSecret = z.string().min(16, "secret must be at least 16 characters").max(500).nullable();
const ZRoutingKey = z.string().trim().min(1).max(200).nullable();

export const ZWebhookEndpointCreate = z.object({
  name: ZName,
  url: ZUrl,
  format: ZWebhookFormat,
  secret: ZSecret.optional(),
  routingKey: ZRoutingKey.optional(),
  enabled: z.boolean().default(true),
});
export type WebhookEndpointCreate = z.input<typeof ZWebhookEndpointCreate>;

export const ZWebhookEndpointUpdate = ZWebhookEndpointCreate.partial().extend({
  enabled: z.boolean().optional(),
});
export type WebhookEndpointUpdate = z.input<typeof ZWebhookEndpointUpdate>;

export interface WebhookEndpointView {
  id: string;
  name: string;
  url: string;
  format: string;
  enabled: boolean;
  hasSecret: boolean;
  hasRoutingKey: boolean;
  createdAt: string;
  updatedAt: string;
  lastAttempt: LastAttempt | null;
}

export type WebhookResult<T> = { ok: true; value: T } | { ok: false; status: 400 | 404 | 409; error: string };

interface EndpointRow {
  id: string;
  name: string;
  url: string;
  format: string;
  enabled: boolean;
  secretEnc: string | null;
  routingKeyEnc: string | null;
  createdAt: Date;
  updatedAt: Date;
}

function view(r: EndpointRow, lastAttempt: LastAttempt | null = null): WebhookEndpointView {
  return {
    id: r.id,
    name: r.name,
    url: r.url,
    format: r.format,
    enabled: r.enabled,
    hasSecret: r.secretEnc !== null,
    hasRoutingKey: r.routingKeyEnc !== null,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    lastAttempt,
  };
}

function zodMessage(e: z.ZodError): string {
  return e.issues
    .map((i) => (i.path.length > 0 ? `${i.path.join(".")}: ${i.message}` : i.message))
    .join("; ");
}

const isUuid = (s: string) => z.uuid().safeParse(s).success;

// Prisma's known request errors carry a code: P2002 unique violation, P2025 record not found.
function conflictOrThrow(e: unknown, name: string | undefined): WebhookResult<never> {
  const code = e !== null && typeof e === "object" && "code" in e ? e.code : undefined;
  if (code === "P2002") {
    return { ok: false, status: 409, error: `a webhook endpoint named "${name ?? ""}" already exists` };
  }
  if (code === "P2025") {
    return { ok: false, status: 404, error: "webhook endpoint not found" };
  }
  throw e;
}

/** Every endpoint, secrets reduced to booleans, with its latest delivery attempt. */
export async function listWebhookEndpoints(db: PrismaClient): Promise<WebhookEndpointView[]> {
  const [rows, last] = await Promise.all([
    db.webhookEndpoint.findMany({ orderBy: { name: "asc" } }),
    latestAttemptPerEndpoint(db),
  ]);
  return rows.map((r) => view(r, last.get(r.id) ?? null));
}

export async function getWebhookEndpoint(db: PrismaClient, id: string): Promise<WebhookEndpointView | null> {
  if (!isUuid(id)) return null;
  const row = await db.webhookEndpoint.findUnique({ where: { id } });
  return row ? view(row) : null;
}

export async function createWebhookEndpoint(
  db: PrismaClient,
  input: unknown,
  deps: { secretKey: Buffer; policy: WebhookUrlPolicy },
): Promise<WebhookResult<WebhookEndpointView>> {
  const parsed = ZWebhookEndpointCreate.safeParse(input);
  if (!parsed.success) return { ok: false, status: 400, error: zodMessage(parsed.error) };
  const p = parsed.data;
  const url = checkWebhookUrl(p.url, deps.policy);
  if (!url.ok) return { ok: false, status: 400, error: url.error };
  if (p.format === "pagerduty" && !p.routingKey) {
    return { ok: false, status: 400, error: "routingKey: required for the pagerduty format" };
  }
  try {
    const row = await db.webhookEndpoint.create({
      data: {
        name: p.name,
        url: url.url.toString(),
        format: p.format,
        enabled: p.enabled,
        secretEnc: p.secret ? seal(p.secret, deps.secretKey) : null,
        routingKeyEnc: p.routingKey ? seal(p.routingKey, deps.secretKey) : null,
      },
    });
    return { ok: true, value: view(row) };
  } catch (e) {
    return conflictOrThrow(e, p.name);
  }
}

export async function updateWebhookEndpoint(
  db: PrismaClient,
  id: string,
  input: unknown,
  deps: { secretKey: Buffer; policy: WebhookUrlPolicy },
): Promise<WebhookResult<WebhookEndpointView>> {
  if (!isUuid(id)) return { ok: false, status: 404, error: "webhook endpoint not found" };
  const parsed = ZWebhookEndpointUpdate.safeParse(input);
  if (!parsed.success) return { ok: false, status: 400, error: zodMessage(parsed.error) };
  const p = parsed.data;
  const current = await db.webhookEndpoint.findUnique({ where: { id } });
  if (!current) return { ok: false, status: 404, error: "webhook endpoint not found" };
  let url: string | undefined;
  if (p.url !== undefined) {
    const checked = checkWebhookUrl(p.url, deps.policy);
    if (!checked.ok) return { ok: false, status: 400, error: checked.error };
    url = checked.url.toString();
  }
  const format = p.format ?? current.format;
  const routingKeyEnc =
    p.routingKey === undefined
      ? current.routingKeyEnc
      : p.routingKey === null
        ? null
        : seal(p.routingKey, deps.secretKey);
  if (format === "pagerduty" && !routingKeyEnc) {
    return { ok: false, status: 400, error: "routingKey: required for the pagerduty format" };
  }
  try {
    const row = await db.webhookEndpoint.update({
      where: { id },
      data: {
        name: p.name,
        url,
        format: p.format,
        enabled: p.enabled,
        ...(p.secret !== undefined ? { secretEnc: p.secret ? seal(p.secret, deps.secretKey) : null } : {}),
        routingKeyEnc,
      },
    });
    return { ok: true, value: view(row) };
  } catch (e) {
    return conflictOrThrow(e, p.name);
  }
}

/** Deletes an endpoint and (cascade) its outbox rows and delivery log. */
export async function deleteWebhookEndpoint(db: PrismaClient, id: string): Promise<WebhookResult<null>> {
  if (!isUuid(id)) return { ok: false, status: 404, error: "webhook endpoint not found" };
  const { count } = await db.webhookEndpoint.deleteMany({ where: { id } });
  return count === 1
    ? { ok: true, value: null }
    : { ok: false, status: 404, error: "webhook endpoint not found" };
}

/** The document a test send delivers: a made-up incident that references no incident row. */
export function testNotification(now: Date, baseUrl = "/"): AlertNotification {
  const at = now.toISOString();
  return {
    version: 1,
    event: "test",
    incidentId: randomUUID(),
    sequence: 1,
    rule: "lag",
    severity: "warning",
    cluster: { id: "00000000-0000-0000-0000-000000000000", name: "groupwatch-test" },
    group: { id: "groupwatch-test-group" },
    summary: "Test notification from groupwatch: this endpoint is reachable",
    openedAt: at,
    resolvedAt: null,
    at,
    details: { test: true },
    links: { group: baseUrl, timeline: baseUrl },
  };
}

/** Enqueues a test notification for one endpoint (enabled or not); delivered like any other. */
export async function sendTest(
  db: PrismaClient,
  endpointId: string,
  opts: { now?: Date } = {},
): Promise<WebhookResult<{ idempotencyKey: string }>> {
  if (!isUuid(endpointId)) return { ok: false, status: 404, error: "webhook endpoint not found" };
  const endpoint = await db.webhookEndpoint.findUnique({ where: { id: endpointId }, select: { id: true } });
  if (!endpoint) return { ok: false, status: 404, error: "webhook endpoint not found" };
  const n = testNotification(opts.now ?? new Date());
  await enqueueNotification(db, n, { endpointIds: [endpointId] });
  return { ok: true, value: { idempotencyKey: idempotencyKey(n, endpointId) } };
}
