import type { AlertNotification } from "../../domain/alerts/notification";
import type { Prisma, PrismaClient } from "../client";
import { pgText } from "./groups";

// The notification outbox. Rows are written in the transaction that changes the incident, then
// claimed and delivered by any collector's OutboxDeliverer (lib/alerts/deliverer.ts). Every time
// here is the database's clock, so deliverers on hosts with skewed clocks still agree.

/** A client or the `tx` of an interactive transaction. */
export type Db = PrismaClient | Prisma.TransactionClient;

const MAX_ERROR = 2000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Same value on every retry; the receiver's Idempotency-Key. */
export function idempotencyKey(n: AlertNotification, endpointId: string): string {
  return n.event === "test"
    ? `test:${n.incidentId}:${endpointId}`
    : `${n.incidentId}:${n.sequence}:${endpointId}`;
}

function idempotencyPrefix(n: AlertNotification): string {
  return idempotencyKey(n, "");
}

// jsonb cannot hold U+0000; untrusted group ids and summaries may.
function storable(v: unknown): unknown {
  if (typeof v === "string") return pgText(v);
  if (Array.isArray(v)) return v.map(storable);
  if (v !== null && typeof v === "object") {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [pgText(k), storable(x)]));
  }
  return v;
}

const errorText = (s: string) => pgText(s).slice(0, MAX_ERROR);

/**
 * Writes one outbox row per enabled endpoint (or per listed endpoint, enabled or not: a test
 * send). Call it with the `tx` that changes the incident so both commit or neither does. A
 * replay inserts nothing (same idempotency keys). Returns how many rows were inserted.
 * Test notifications reference no incident row; the others reference `incidentId`.
 */
export async function enqueueNotification(
  tx: Db,
  notification: AlertNotification,
  opts: { endpointIds?: string[] } = {},
): Promise<number> {
  const incidentId = notification.event === "test" ? null : notification.incidentId;
  const payload = JSON.stringify(storable(notification));
  const prefix = idempotencyPrefix(notification);
  const ids = opts.endpointIds ?? null;
  return tx.$executeRaw`
    INSERT INTO notification (idempotency_key, endpoint_id, incident_id, event, payload, status,
      attempts, next_attempt_at, created_at)
    SELECT ${prefix} || e.id::text, e.id, ${incidentId}::uuid, ${notification.event}, ${payload}::jsonb,
      'pending', 0, now(), now()
    FROM webhook_endpoint e
    WHERE CASE WHEN ${ids}::uuid[] IS NULL THEN e.enabled ELSE e.id = ANY(${ids}::uuid[]) END
    ORDER BY e.id
    ON CONFLICT (idempotency_key) DO NOTHING`;
}

export interface ClaimedNotification {
  id: bigint;
  idempotencyKey: string;
  endpointId: string;
  incidentId: string | null;
  event: string;
  payload: AlertNotification;
  /** Attempts including the one this claim is for. */
  attempts: number;
  createdAt: Date;
  endpoint: {
    name: string;
    url: string;
    format: string;
    secretEnc: string | null;
    routingKeyEnc: string | null;
    enabled: boolean;
  };
}

interface ClaimRow {
  id: bigint;
  idempotency_key: string;
  endpoint_id: string;
  incident_id: string | null;
  event: string;
  payload: AlertNotification;
  attempts: number;
  created_at: Date;
  name: string;
  url: string;
  format: string;
  secret_enc: string | null;
  routing_key_enc: string | null;
  enabled: boolean;
}

/**
 * Claims up to `limit` due notifications for `leaseMs`: they are not due again until the lease
 * ends, so a deliverer that dies mid-request hands them over then. SKIP LOCKED lets several
 * deliverers claim at once without waiting on or double-claiming each other's rows. A row waits
 * while an older notification for the same incident and endpoint is still pending, so a resolve
 * never overtakes its trigger.
 */
export async function claimNotifications(
  db: Db,
  opts: { limit: number; leaseMs: number },
): Promise<ClaimedNotification[]> {
  const rows = await db.$queryRaw<ClaimRow[]>`
    WITH claimed AS (
      UPDATE notification n
      SET next_attempt_at = now() + ${opts.leaseMs}::double precision * interval '1 millisecond',
          attempts = n.attempts + 1
      WHERE n.id IN (
        SELECT c.id FROM notification c
        WHERE c.status = 'pending' AND c.next_attempt_at <= now()
          AND NOT EXISTS (
            SELECT 1 FROM notification p
            WHERE p.status = 'pending' AND p.endpoint_id = c.endpoint_id
              AND p.incident_id = c.incident_id AND p.id < c.id)
        ORDER BY c.id
        FOR UPDATE SKIP LOCKED
        LIMIT ${opts.limit})
      RETURNING n.id, n.idempotency_key, n.endpoint_id, n.incident_id, n.event, n.payload, n.attempts,
        n.created_at)
    SELECT c.id, c.idempotency_key, c.endpoint_id::text, c.incident_id::text, c.event, c.payload,
      c.attempts, c.created_at, e.name, e.url, e.format, e.secret_enc, e.routing_key_enc, e.enabled
    FROM claimed c JOIN webhook_endpoint e ON e.id = c.endpoint_id
    ORDER BY c.id`;
  return rows.map((r) => ({
    id: r.id,
    idempotencyKey: r.idempotency_key,
    endpointId: r.endpoint_id,
    incidentId: r.incident_id,
    event: r.event,
    payload: r.payload,
    attempts: r.attempts,
    createdAt: r.created_at,
    endpoint: {
      name: r.name,
      url: r.url,
      format: r.format,
      secretEnc: r.secret_enc,
      routingKeyEnc: r.routing_key_enc,
      enabled: r.enabled,
    },
  }));
}

export interface AttemptRecord {
  at: Date;
  durationMs: number;
  ok: boolean;
  statusCode: number | null;
  error: string | null;
}

export type AttemptOutcome =
  | { kind: "delivered" }
  | { kind: "failed"; error: string }
  | { kind: "retry"; error: string; delayMs: number; maxAgeMs: number };

/** The notification's status after the outcome; "stale" when another claim took it over. */
export type OutboxStatus = "pending" | "delivered" | "failed" | "stale";

/**
 * Records an attempt and applies its outcome in one transaction. A retry whose next attempt
 * would fall beyond `maxAgeMs` after enqueueing gives up (failed). Outcomes of a claim that
 * another deliverer has since re-claimed (lease ran out) are recorded but do not change the
 * row, except "delivered", which always wins.
 */
export async function recordAttempt(
  db: PrismaClient,
  claim: { id: bigint; attempts: number },
  attempt: AttemptRecord,
  outcome: AttemptOutcome,
): Promise<OutboxStatus> {
  const insert = db.$executeRaw`
    INSERT INTO delivery_attempt (notification_id, at, duration_ms, ok, status_code, error)
    VALUES (${claim.id}, ${attempt.at}, ${Math.round(attempt.durationMs)}, ${attempt.ok},
      ${attempt.statusCode}, ${attempt.error === null ? null : errorText(attempt.error)})`;
  let update;
  switch (outcome.kind) {
    case "delivered":
      update = db.$queryRaw<{ status: string }[]>`
        UPDATE notification SET status = 'delivered', delivered_at = now(), last_error = NULL
        WHERE id = ${claim.id} AND status = 'pending'
        RETURNING status`;
      break;
    case "failed":
      update = db.$queryRaw<{ status: string }[]>`
        UPDATE notification SET status = 'failed', last_error = ${errorText(outcome.error)}
        WHERE id = ${claim.id} AND status = 'pending' AND attempts = ${claim.attempts}
        RETURNING status`;
      break;
    case "retry": {
      const err = errorText(outcome.error);
      const gaveUp = errorText(`gave up after ${claim.attempts} attempts: ${outcome.error}`);
      update = db.$queryRaw<{ status: string }[]>`
        UPDATE notification SET
          status = CASE WHEN now() + ${outcome.delayMs}::double precision * interval '1 millisecond'
                          > created_at + ${outcome.maxAgeMs}::double precision * interval '1 millisecond'
                        THEN 'failed' ELSE 'pending' END,
          last_error = CASE WHEN now() + ${outcome.delayMs}::double precision * interval '1 millisecond'
                              > created_at + ${outcome.maxAgeMs}::double precision * interval '1 millisecond'
                            THEN ${gaveUp} ELSE ${err} END,
          next_attempt_at = now() + ${outcome.delayMs}::double precision * interval '1 millisecond'
        WHERE id = ${claim.id} AND status = 'pending' AND attempts = ${claim.attempts}
        RETURNING status`;
      break;
    }
  }
  const [, rows] = await db.$transaction([insert, update]);
  return (rows[0]?.status as OutboxStatus | undefined) ?? "stale";
}

export interface DeliveryLogEntry {
  id: string;
  at: string;
  durationMs: number;
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  notification: {
    id: string;
    idempotencyKey: string;
    event: string;
    incidentId: string | null;
    status: string;
    attempts: number;
  };
}

/** An endpoint's delivery attempts, newest first; pass `nextCursor` as `before` for the next page. */
export async function listDeliveryLog(
  db: PrismaClient,
  endpointId: string,
  page: { limit?: number; before?: string | null } = {},
): Promise<{ entries: DeliveryLogEntry[]; nextCursor: string | null }> {
  const limit = Math.min(Math.max(page.limit ?? 50, 1), 500);
  // A malformed id or cursor matches nothing rather than failing the query.
  if (!UUID.test(endpointId) || (page.before && !/^\d{1,19}$/.test(page.before))) {
    return { entries: [], nextCursor: null };
  }
  const rows = await db.deliveryAttempt.findMany({
    where: {
      notification: { endpointId },
      ...(page.before ? { id: { lt: BigInt(page.before) } } : {}),
    },
    include: { notification: true },
    orderBy: { id: "desc" },
    take: limit + 1,
  });
  const entries = rows.slice(0, limit).map((a): DeliveryLogEntry => ({
    id: a.id.toString(),
    at: a.at.toISOString(),
    durationMs: a.durationMs,
    ok: a.ok,
    statusCode: a.statusCode,
    error: a.error,
    notification: {
      id: a.notificationId.toString(),
      idempotencyKey: a.notification.idempotencyKey,
      event: a.notification.event,
      incidentId: a.notification.incidentId,
      status: a.notification.status,
      attempts: a.notification.attempts,
    },
  }));
  return { entries, nextCursor: rows.length > limit ? (entries.at(-1)?.id ?? null) : null };
}

export interface LastAttempt {
  at: string;
  ok: boolean;
  statusCode: number | null;
  error: string | null;
}

/** The latest delivery attempt of each endpoint that has one. */
export async function latestAttemptPerEndpoint(db: PrismaClient): Promise<Map<string, LastAttempt>> {
  const rows = await db.$queryRaw<
    { endpoint_id: string; at: Date; ok: boolean; status_code: number | null; error: string | null }[]
  >`
    SELECT e.id::text AS endpoint_id, a.at, a.ok, a.status_code, a.error
    FROM webhook_endpoint e
    CROSS JOIN LATERAL (
      SELECT d.at, d.ok, d.status_code, d.error
      FROM notification n JOIN delivery_attempt d ON d.notification_id = n.id
      WHERE n.endpoint_id = e.id
      ORDER BY d.id DESC LIMIT 1) a`;
  return new Map(
    rows.map((r) => [
      r.endpoint_id,
      { at: r.at.toISOString(), ok: r.ok, statusCode: r.status_code, error: r.error },
    ]),
  );
}
