import { createHmac } from "node:crypto";

import pino from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";

import { OutboxDeliverer, type OutboxDelivererOptions } from "../../lib/alerts/deliverer";
import type { WebhookFormat } from "../../lib/alerts/render";
import { ALLOW_ANY_HOST } from "../../lib/alerts/url-policy";
import { createPrisma, type PrismaClient } from "../../lib/db/client";
import { enqueueNotification, listDeliveryLog } from "../../lib/db/queries/outbox";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookEndpoints,
  sendTest,
  testNotification,
  updateWebhookEndpoint,
} from "../../lib/db/queries/webhooks";
import type { AlertNotification } from "../../lib/domain/alerts/notification";
import { deriveKey } from "../../lib/secrets";
import { waitFor } from "../../scripts/lib/process";
import { uniqueName } from "../fixtures/processes";
import { WebhookReceiver, type ReceivedRequest } from "../fixtures/webhook-receiver";

// The outbox against the real PostgreSQL and a real HTTP receiver on loopback. Each test makes
// its own endpoints (and cluster/incident rows) and deletes them afterwards; deleting an endpoint
// cascades to its outbox rows and delivery log.

const databaseUrl = inject("databaseUrl");
const secretKey = deriveKey("outbox-integration-test-key");
const log = pino({ level: "silent" });
const SECRET = "whsec-integration-0123456789";

let db: PrismaClient;
let receiver: WebhookReceiver;
let endpoints: string[] = [];
let deliverers: OutboxDeliverer[] = [];
let receivers: WebhookReceiver[] = [];
const clusters: string[] = [];

beforeAll(async () => {
  db = createPrisma(databaseUrl);
  receiver = await WebhookReceiver.start();
});

afterEach(async () => {
  await Promise.all(deliverers.map((d) => d.stop()));
  await Promise.all(receivers.map((r) => r.close()));
  await db.webhookEndpoint.deleteMany({ where: { id: { in: endpoints } } });
  deliverers = [];
  receivers = [];
  endpoints = [];
  receiver.reset();
});

afterAll(async () => {
  await db.cluster.deleteMany({ where: { name: { in: clusters } } });
  await receiver.close();
  await db.$disconnect();
});

async function endpoint(
  opts: {
    format?: WebhookFormat;
    secret?: string;
    routingKey?: string;
    url?: string;
    enabled?: boolean;
  } = {},
) {
  const name = uniqueName("it-hook");
  const r = await createWebhookEndpoint(
    db,
    {
      name,
      url: opts.url ?? receiver.url(`/${name}`),
      format: opts.format ?? "generic",
      secret: opts.secret,
      routingKey: opts.routingKey,
      enabled: opts.enabled ?? true,
    },
    { secretKey, policy: ALLOW_ANY_HOST },
  );
  if (!r.ok) throw new Error(r.error);
  endpoints.push(r.value.id);
  return r.value;
}

function deliverer(extra: Partial<OutboxDelivererOptions> = {}): OutboxDeliverer {
  const d = new OutboxDeliverer({
    db,
    secretKey,
    log,
    policy: ALLOW_ANY_HOST,
    requestTimeoutMs: 2000,
    retry: { baseDelayMs: 50, maxDelayMs: 200, jitter: 0.2, maxAgeMs: 60_000, retryAfterCapMs: 2000 },
    pollIntervalMs: 50,
    batchSize: 10,
    ...extra,
  });
  deliverers.push(d);
  return d;
}

async function testSend(endpointId: string): Promise<string> {
  const r = await sendTest(db, endpointId);
  if (!r.ok) throw new Error(r.error);
  return r.value.idempotencyKey;
}

function row(key: string) {
  return db.notification.findUnique({
    where: { idempotencyKey: key },
    include: { deliveries: { orderBy: { id: "asc" } } },
  });
}

function waitForStatus(key: string, status: "delivered" | "failed", timeoutMs = 20_000) {
  return waitFor(
    `notification ${key} ${status}`,
    async () => {
      const r = await row(key);
      return r?.status === status ? r : undefined;
    },
    { timeoutMs, intervalMs: 50 },
  );
}

/** What a receiver does, written out with node:crypto alone. */
function signatureVerifies(req: ReceivedRequest, secret: string): boolean {
  const ts = req.headers["x-groupwatch-timestamp"] as string;
  const sig = req.headers["x-groupwatch-signature"] as string;
  const expected = `v1=${createHmac("sha256", secret).update(`${ts}.${req.body}`).digest("hex")}`;
  return sig === expected && Math.abs(Date.now() / 1000 - Number(ts)) < 300;
}

async function incidentFixture() {
  const cluster = await db.cluster.create({
    data: { name: uniqueName("it-outbox"), brokers: ["127.0.0.1:1"] },
  });
  clusters.push(cluster.name);
  const openedAt = new Date();
  const incident = await db.incident.create({
    data: {
      clusterId: cluster.id,
      groupKey: "orders",
      groupId: "orders",
      kind: "storm",
      state: "open",
      severity: "critical",
      openedAt,
      updatedAt: openedAt,
      summary: "orders: 4 rebalances in 10 min",
      details: { rebalances: 4 },
    },
  });
  const notification = (event: "trigger" | "resolve", sequence: number): AlertNotification => ({
    version: 1,
    event,
    incidentId: incident.id,
    sequence,
    rule: "storm",
    severity: "critical",
    cluster: { id: cluster.id, name: cluster.name },
    group: { id: "orders" },
    summary: incident.summary,
    openedAt: openedAt.toISOString(),
    resolvedAt: event === "resolve" ? new Date().toISOString() : null,
    at: new Date().toISOString(),
    details: { rebalances: 4, windowMinutes: 10 },
    links: { group: "/clusters/x/groups/orders", timeline: "/clusters/x/groups/orders/timeline" },
  });
  return { cluster, incident, notification };
}

describe("outbox", () => {
  it("delivers a trigger written in the incident's transaction once, signed", async () => {
    const hook = await endpoint({ secret: SECRET });
    const disabled = await endpoint({ enabled: false });
    const { incident, notification } = await incidentFixture();
    const n = notification("trigger", 1);
    const inserted = await db.$transaction(async (tx) => {
      await tx.incident.update({
        where: { id: incident.id },
        data: { sequence: 1, lastNotifiedAt: new Date() },
      });
      return enqueueNotification(tx, n);
    });
    expect(inserted).toBeGreaterThanOrEqual(1);
    expect(await db.notification.count({ where: { endpointId: disabled.id } })).toBe(0);
    // A replay of the same incident change inserts nothing.
    expect(await db.$transaction((tx) => enqueueNotification(tx, n))).toBe(0);

    const key = `${incident.id}:1:${hook.id}`;
    deliverer().start();
    const done = await waitForStatus(key, "delivered");
    expect(done.deliveries).toMatchObject([{ ok: true, statusCode: 200, error: null }]);
    expect(done.attempts).toBe(1);

    // Another round sends nothing more.
    await deliverer().drainOnce();
    const got = receiver.withKey(key);
    expect(got).toHaveLength(1);
    const req = got[0]!;
    expect(req.method).toBe("POST");
    expect(req.path).toBe(`/${hook.name}`);
    expect(req.headers["content-type"]).toBe("application/json");
    expect(req.headers["x-groupwatch-event"]).toBe("trigger");
    expect(signatureVerifies(req, SECRET)).toBe(true);
    expect(signatureVerifies({ ...req, body: req.body.replace("orders", "0rders") }, SECRET)).toBe(false);
    expect(JSON.parse(req.body)).toEqual(n);
  });

  it("writes nothing when the incident's transaction rolls back", async () => {
    await endpoint();
    const { incident, notification } = await incidentFixture();
    await expect(
      db.$transaction(async (tx) => {
        await enqueueNotification(tx, notification("trigger", 1));
        throw new Error("incident update failed");
      }),
    ).rejects.toThrow("incident update failed");
    expect(await db.notification.count({ where: { incidentId: incident.id } })).toBe(0);
  });

  it("enqueueing the same key twice keeps one row", async () => {
    const hook = await endpoint();
    const n = testNotification(new Date());
    expect(await enqueueNotification(db, n, { endpointIds: [hook.id] })).toBe(1);
    expect(await enqueueNotification(db, n, { endpointIds: [hook.id] })).toBe(0);
    const rows = await db.notification.findMany({ where: { endpointId: hook.id } });
    expect(rows.map((r) => r.idempotencyKey)).toEqual([`test:${n.incidentId}:${hook.id}`]);
    expect(rows[0]).toMatchObject({ status: "pending", attempts: 0, incidentId: null, event: "test" });
  });

  it("retries 5xx with the same idempotency key and body until delivered", async () => {
    const hook = await endpoint({ secret: SECRET });
    receiver.failNext(3, 503);
    const key = await testSend(hook.id);
    deliverer().start();
    const done = await waitForStatus(key, "delivered");
    expect(done.deliveries.map((d) => [d.ok, d.statusCode])).toEqual([
      [false, 503],
      [false, 503],
      [false, 503],
      [true, 200],
    ]);
    expect(done.deliveries[0]!.error).toBe("HTTP 503: receiver says no");
    expect(done.attempts).toBe(4);
    const got = receiver.withKey(key);
    expect(got.map((r) => r.status)).toEqual([503, 503, 503, 200]);
    expect(new Set(got.map((r) => r.body)).size).toBe(1);
    expect(got.every((r) => signatureVerifies(r, SECRET))).toBe(true);
  });

  it("waits as long as Retry-After asks", async () => {
    const hook = await endpoint();
    receiver.failNext(1, 429, { "Retry-After": "1" });
    const key = await testSend(hook.id);
    deliverer().start();
    await waitForStatus(key, "delivered");
    const [first, second] = receiver.withKey(key);
    expect(first!.status).toBe(429);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(950);
  });

  it("keeps trying while the receiver is down and delivers when it is back", async () => {
    const flaky = await WebhookReceiver.start();
    receivers.push(flaky);
    await flaky.down();
    const hook = await endpoint({ url: flaky.url() });
    const key = await testSend(hook.id);
    deliverer().start();
    await waitFor("two refused attempts", async () => ((await row(key))?.deliveries.length ?? 0) >= 2, {
      timeoutMs: 20_000,
      intervalMs: 50,
    });
    await flaky.up();
    const done = await waitForStatus(key, "delivered");
    const refused = done.deliveries.filter((d) => !d.ok);
    expect(refused.length).toBeGreaterThanOrEqual(2);
    expect(refused.every((d) => d.statusCode === null && /ECONNREFUSED/.test(d.error ?? ""))).toBe(true);
    expect(flaky.withKey(key)).toHaveLength(1);
  });

  it("fails a 400 after one attempt", async () => {
    const hook = await endpoint();
    receiver.failAlways(400, {}, "bad payload");
    const key = await testSend(hook.id);
    const d = deliverer();
    d.start();
    const done = await waitForStatus(key, "failed");
    expect(done.lastError).toBe("HTTP 400: bad payload");
    expect(done.deliveries).toMatchObject([{ ok: false, statusCode: 400 }]);
    await d.drainOnce();
    expect(receiver.withKey(key)).toHaveLength(1);
  });

  it("gives up after the maximum age", async () => {
    const hook = await endpoint();
    receiver.failAlways(500);
    const key = await testSend(hook.id);
    deliverer({ retry: { baseDelayMs: 50, maxDelayMs: 100, maxAgeMs: 500 } }).start();
    const done = await waitForStatus(key, "failed");
    expect(done.lastError).toMatch(/^gave up after \d+ attempts: HTTP 500/);
    expect(done.deliveries.length).toBeGreaterThanOrEqual(2);
    expect(done.deliveries.every((d) => !d.ok && d.statusCode === 500)).toBe(true);
  });

  it("times out a receiver that does not answer, then retries", async () => {
    const hook = await endpoint();
    receiver.slowDown(3000);
    const key = await testSend(hook.id);
    deliverer({ requestTimeoutMs: 300 }).start();
    await waitFor("a timed-out attempt", async () => ((await row(key))?.deliveries.length ?? 0) >= 1, {
      intervalMs: 50,
    });
    receiver.reset();
    const done = await waitForStatus(key, "delivered");
    expect(done.deliveries[0]).toMatchObject({
      ok: false,
      statusCode: null,
      error: "request timed out after 300 ms",
    });
    expect(done.deliveries[0]!.durationMs).toBeLessThan(2000);
  });

  it("sends a resolve only after its trigger went through", async () => {
    const hook = await endpoint();
    const { incident, notification } = await incidentFixture();
    await enqueueNotification(db, notification("trigger", 1), { endpointIds: [hook.id] });
    await enqueueNotification(db, notification("resolve", 2), { endpointIds: [hook.id] });
    receiver.failNext(2, 502);
    deliverer().start();
    await waitForStatus(`${incident.id}:2:${hook.id}`, "delivered");
    const got = receiver.requests.filter((r) => r.path === `/${hook.name}`);
    expect(got.map((r) => [(JSON.parse(r.body) as AlertNotification).event, r.status])).toEqual([
      ["trigger", 502],
      ["trigger", 502],
      ["trigger", 200],
      ["resolve", 200],
    ]);
  });

  it("two deliverers racing over one outbox send each notification exactly once", async () => {
    const hook = await endpoint();
    const keys = [];
    for (let i = 0; i < 40; i++) keys.push(await testSend(hook.id));
    receiver.slowDown(20);
    const a = deliverer({ batchSize: 4 });
    const b = deliverer({ batchSize: 4 });
    const counts = [0, 0];
    const drain = async (d: OutboxDeliverer, i: number) => {
      for (;;) {
        const r = await d.drainOnce();
        if (r.claimed === 0) return;
        counts[i]! += r.delivered;
      }
    };
    await Promise.all([drain(a, 0), drain(b, 1)]);
    const rows = await db.notification.findMany({ where: { endpointId: hook.id } });
    expect(rows.every((r) => r.status === "delivered" && r.attempts === 1)).toBe(true);
    expect(counts[0]! + counts[1]!).toBe(40);
    expect(counts[0]).toBeGreaterThan(0);
    expect(counts[1]).toBeGreaterThan(0);
    for (const key of keys) expect(receiver.withKey(key)).toHaveLength(1);
  });

  it("fails a notification to a host the policy no longer allows, without a request", async () => {
    const hook = await endpoint();
    const key = await testSend(hook.id);
    deliverer({ policy: { allowedHosts: ["hooks.example.com", "*.example.org"] } }).start();
    const done = await waitForStatus(key, "failed");
    expect(done.lastError).toBe("webhook host 127.0.0.1 is not allowed by GROUPWATCH_WEBHOOK_ALLOWED_HOSTS");
    expect(done.deliveries).toMatchObject([{ ok: false, statusCode: null, error: done.lastError }]);
    expect(receiver.withKey(key)).toHaveLength(0);
    // Saving it under that policy is refused up front.
    const saved = await createWebhookEndpoint(
      db,
      { name: uniqueName("it-hook"), url: receiver.url(), format: "generic" },
      { secretKey, policy: { allowedHosts: ["hooks.example.com"] } },
    );
    expect(saved).toMatchObject({ ok: false, status: 400 });
  });
});

describe("webhook endpoints", () => {
  it("keeps secrets sealed and out of the list, validates input, logs deliveries by page", async () => {
    const pd = await endpoint({ format: "pagerduty", secret: SECRET, routingKey: "R0UTINGKEY0123456789" });
    const stored = await db.webhookEndpoint.findUniqueOrThrow({ where: { id: pd.id } });
    expect(stored.secretEnc).toMatch(/^v1:/);
    expect(stored.routingKeyEnc).toMatch(/^v1:/);
    const listed = (await listWebhookEndpoints(db)).find((e) => e.id === pd.id)!;
    expect(listed).toMatchObject({
      hasSecret: true,
      hasRoutingKey: true,
      format: "pagerduty",
      lastAttempt: null,
    });
    expect(JSON.stringify(listed)).not.toMatch(/R0UTINGKEY|whsec|v1:/);

    const deps = { secretKey, policy: ALLOW_ANY_HOST };
    expect(
      await createWebhookEndpoint(db, { name: pd.name, url: receiver.url(), format: "slack" }, deps),
    ).toMatchObject({ ok: false, status: 409 });
    expect(
      await createWebhookEndpoint(db, { name: uniqueName("x"), url: "ftp://h/x", format: "slack" }, deps),
    ).toMatchObject({ ok: false, status: 400 });
    expect(
      await createWebhookEndpoint(
        db,
        { name: uniqueName("x"), url: receiver.url(), format: "pagerduty" },
        deps,
      ),
    ).toMatchObject({ ok: false, status: 400, error: "routingKey: required for the pagerduty format" });
    expect(
      await createWebhookEndpoint(db, { name: "", url: receiver.url(), format: "teams" }, deps),
    ).toMatchObject({
      ok: false,
      status: 400,
    });

    // The sealed routing key reaches PagerDuty's body; retries show in the delivery log.
    receiver.failNext(2, 500);
    const key = await testSend(pd.id);
    deliverer().start();
    await waitForStatus(key, "delivered");
    const body = JSON.parse(receiver.withKey(key).at(-1)!.body) as Record<string, unknown>;
    expect(body).toMatchObject({ routing_key: "R0UTINGKEY0123456789", event_action: "trigger" });
    const page1 = await listDeliveryLog(db, pd.id, { limit: 2 });
    expect(page1.entries.map((e) => e.statusCode)).toEqual([200, 500]);
    expect(page1.entries[0]!.notification).toMatchObject({
      idempotencyKey: key,
      status: "delivered",
      attempts: 3,
    });
    const page2 = await listDeliveryLog(db, pd.id, { limit: 2, before: page1.nextCursor });
    expect(page2).toMatchObject({ entries: [{ statusCode: 500 }], nextCursor: null });
    expect((await listWebhookEndpoints(db)).find((e) => e.id === pd.id)!.lastAttempt).toMatchObject({
      ok: true,
      statusCode: 200,
    });

    const updated = await updateWebhookEndpoint(db, pd.id, { secret: null, enabled: false }, deps);
    expect(updated).toMatchObject({
      ok: true,
      value: { hasSecret: false, hasRoutingKey: true, enabled: false },
    });
    expect(await updateWebhookEndpoint(db, pd.id, { routingKey: null }, deps)).toMatchObject({
      ok: false,
      status: 400,
    });
    expect(await deleteWebhookEndpoint(db, pd.id)).toEqual({ ok: true, value: null });
    expect(await db.notification.count({ where: { endpointId: pd.id } })).toBe(0);
    expect(await deleteWebhookEndpoint(db, pd.id)).toMatchObject({ ok: false, status: 404 });
  });
});
