import { z } from "zod";

import { webhookPolicyFromEnv } from "../alerts/url-policy";
import type { PrismaClient } from "../db/client";
import { listDeliveryLog } from "../db/queries/outbox";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookEndpoints,
  sendTest,
  updateWebhookEndpoint,
  type WebhookEndpointView,
  type WebhookResult,
} from "../db/queries/webhooks";
import type { Role } from "../auth/roles";
import { secretKey } from "./cluster-admin";
import { BadRequestError, NotFoundError, type IssueDetail } from "./errors";
import { ConflictError } from "./handler";
import { zInt } from "./params";

// Webhook endpoints for the API: lib/db/queries/webhooks.ts does the work (URL policy, sealing,
// conflicts); this maps its results onto the API's errors. A webhook URL can itself be a
// credential (Slack, Teams), so only admins see it whole.

function unwrap<T>(r: WebhookResult<T>): T {
  if (r.ok) return r.value;
  if (r.status === 404) throw new NotFoundError(r.error);
  if (r.status === 409) throw new ConflictError(r.error);
  // "url: …; format: …" → one detail per field.
  const details: IssueDetail[] = r.error.split("; ").map((part) => {
    const m = /^([\w.]+): (.*)$/.exec(part);
    return m ? { path: m[1] ?? "", message: m[2] ?? part } : { path: "", message: part };
  });
  if (details.length === 1 && details[0]?.path === "" && /webhook URL|host/i.test(r.error)) {
    details[0] = { path: "url", message: r.error };
  }
  throw new BadRequestError(r.error, details);
}

function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname === "/" && !u.search ? u.origin : `${u.origin}/…`;
  } catch {
    return "…";
  }
}

const forRole = (e: WebhookEndpointView, role: Role): WebhookEndpointView =>
  role === "admin" ? e : { ...e, url: redactUrl(e.url) };

export async function listWebhooks(db: PrismaClient, role: Role) {
  return { endpoints: (await listWebhookEndpoints(db)).map((e) => forRole(e, role)) };
}

const deps = () => ({ secretKey: secretKey(), policy: webhookPolicyFromEnv() });

export async function createWebhook(db: PrismaClient, body: unknown) {
  return { endpoint: unwrap(await createWebhookEndpoint(db, body, deps())) };
}

export async function updateWebhook(db: PrismaClient, id: string, body: unknown) {
  return { endpoint: unwrap(await updateWebhookEndpoint(db, id, body, deps())) };
}

export async function deleteWebhook(db: PrismaClient, id: string) {
  unwrap(await deleteWebhookEndpoint(db, id));
  return { deleted: id };
}

/** Enqueues a test notification; the collector's deliverer sends it like any other. */
export async function testWebhook(db: PrismaClient, id: string) {
  const { idempotencyKey } = unwrap(await sendTest(db, id));
  return { queued: true, idempotencyKey };
}

export const ZDeliveryQuery = z.strictObject({
  cursor: z
    .string()
    .regex(/^\d{1,19}$/, "not a cursor from this API")
    .optional(),
  limit: zInt("limit", 1, 500).default(50),
});

export async function webhookDeliveries(db: PrismaClient, id: string, q: z.output<typeof ZDeliveryQuery>) {
  if (!(await getWebhookEndpoint(db, id))) throw new NotFoundError("webhook endpoint not found");
  return listDeliveryLog(db, id, { limit: q.limit, before: q.cursor ?? null });
}
