import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

import { createPrisma, type PrismaClient } from "../../lib/db/client";
import { uniqueName } from "../fixtures/processes";

// The admin API (rules, silences, webhooks, clusters, connection test) through its route
// handlers, called as Next calls them, signed in as a viewer, an operator and an admin. Every
// row this file creates has a unique name; nothing shared is wiped.

const databaseUrl = inject("databaseUrl");
const bootstrap = inject("kafkaBootstrap");

process.env.DATABASE_URL = databaseUrl;
process.env.NEXTAUTH_SECRET ??= "admin-api-integration-test-session-secret";
process.env.GROUPWATCH_DATA_DIR ??= ".data/test";
process.env.GROUPWATCH_SECRET_KEY ??= "integration-test-secret-key";
process.env.LOG_LEVEL ??= "silent";

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
type Method = "GET" | "POST" | "PATCH" | "DELETE";
type RoleName = "viewer" | "operator" | "admin";

const routes: Record<string, Partial<Record<Method, Handler>>> = {};
const cookies: Record<RoleName, string> = { viewer: "", operator: "", admin: "" };
const usernames = {} as Record<RoleName, string>;
let db: PrismaClient;
const clusterIds: string[] = [];

async function call(
  as: RoleName,
  method: Method,
  route: string,
  opts: { params?: Record<string, string>; body?: unknown; raw?: string; query?: string } = {},
) {
  const fn = routes[route]?.[method];
  if (!fn) throw new Error(`no ${method} ${route}`);
  const init: RequestInit = { method, headers: { cookie: cookies[as], "content-type": "application/json" } };
  if (opts.raw !== undefined) init.body = opts.raw;
  else if (opts.body !== undefined) init.body = JSON.stringify(opts.body);
  const res = await fn(new Request(`http://localhost${route}${opts.query ?? ""}`, init), {
    params: Promise.resolve(opts.params ?? {}),
  });
  const text = await res.text();
  const body = (text ? JSON.parse(text) : null) as Record<string, unknown> & {
    error?: string;
    details?: { path: string; message: string }[];
  };
  return { status: res.status, body, text };
}

beforeAll(async () => {
  db = createPrisma(databaseUrl);
  const { encodeSession } = await import("../../lib/auth/session");
  const { authSecret } = await import("../../lib/auth/secret");
  for (const role of ["viewer", "operator", "admin"] as const) {
    const username = uniqueName(`adm-${role}`).replace(/-/g, "_");
    usernames[role] = username;
    await db.appUser.create({ data: { username, role, provider: "credentials" } });
    cookies[role] = `next-auth.session-token=${await encodeSession({ username, role }, authSecret())}`;
  }
  const modules = {
    "/api/alerts/rules": import("../../app/api/alerts/rules/route"),
    "/api/alerts/rules/[id]": import("../../app/api/alerts/rules/[id]/route"),
    "/api/silences": import("../../app/api/silences/route"),
    "/api/silences/[id]": import("../../app/api/silences/[id]/route"),
    "/api/webhooks": import("../../app/api/webhooks/route"),
    "/api/webhooks/[id]": import("../../app/api/webhooks/[id]/route"),
    "/api/webhooks/[id]/test": import("../../app/api/webhooks/[id]/test/route"),
    "/api/webhooks/[id]/deliveries": import("../../app/api/webhooks/[id]/deliveries/route"),
    "/api/clusters": import("../../app/api/clusters/route"),
    "/api/clusters/[cluster]": import("../../app/api/clusters/[cluster]/route"),
    "/api/clusters/test-connection": import("../../app/api/clusters/test-connection/route"),
    "/api/cluster-admin": import("../../app/api/cluster-admin/route"),
  };
  for (const [path, m] of Object.entries(modules)) routes[path] = await m;
});

afterAll(async () => {
  await db.cluster.deleteMany({ where: { id: { in: clusterIds } } });
  await db.appUser.deleteMany({ where: { username: { in: Object.values(usernames) } } });
  await db.$disconnect();
});

async function newCluster(): Promise<{ id: string; name: string }> {
  const name = uniqueName("adm-cluster");
  const r = await call("admin", "POST", "/api/clusters", { body: { name, brokers: [bootstrap] } });
  expect(r.status).toBe(201);
  const c = r.body.cluster as { id: string; name: string };
  clusterIds.push(c.id);
  return c;
}

describe("roles are enforced on the server", () => {
  const anyId = "00000000-0000-4000-8000-000000000000";
  const mutations: [Method, string, Record<string, string>, unknown][] = [
    ["POST", "/api/alerts/rules", {}, { kind: "storm", params: {} }],
    ["PATCH", "/api/alerts/rules/[id]", { id: anyId }, { enabled: false }],
    ["DELETE", "/api/alerts/rules/[id]", { id: anyId }, undefined],
    ["POST", "/api/silences", {}, { duration: "1h", comment: "x" }],
    ["DELETE", "/api/silences/[id]", { id: anyId }, undefined],
    ["POST", "/api/webhooks", {}, { name: "x", url: "https://example.com/", format: "generic" }],
    ["PATCH", "/api/webhooks/[id]", { id: anyId }, { enabled: false }],
    ["DELETE", "/api/webhooks/[id]", { id: anyId }, undefined],
    ["POST", "/api/webhooks/[id]/test", { id: anyId }, undefined],
    ["POST", "/api/clusters", {}, { name: "x", brokers: ["127.0.0.1:1"] }],
    ["PATCH", "/api/clusters/[cluster]", { cluster: anyId }, { enabled: false }],
    ["DELETE", "/api/clusters/[cluster]", { cluster: anyId }, undefined],
    ["POST", "/api/clusters/test-connection", {}, { brokers: ["127.0.0.1:1"] }],
  ];

  it.each(mutations)("a viewer gets 403 on %s %s", async (method, route, params, body) => {
    const r = await call("viewer", method, route, { params, body });
    expect(r.status).toBe(403);
    expect(r.body.error).toMatch(/needs the (operator|admin) role/);
  });

  it("without a session every mutation is a 401", async () => {
    const fn = routes["/api/silences"]?.POST;
    const r = await fn?.(new Request("http://localhost/api/silences", { method: "POST", body: "{}" }), {
      params: Promise.resolve({}),
    });
    expect(r?.status).toBe(401);
  });

  it("an operator can silence and send a test, but not create a webhook, rule or cluster", async () => {
    const admin = await call("admin", "POST", "/api/webhooks", {
      body: {
        name: uniqueName("adm-hook"),
        url: "https://hooks.example.com/T1/secret-path",
        format: "generic",
      },
    });
    expect(admin.status).toBe(201);
    const hook = admin.body.endpoint as { id: string };

    const s = await call("operator", "POST", "/api/silences", {
      body: { groupGlob: "orders-*", kind: "lag", duration: "2h", comment: "deploying orders" },
    });
    expect(s.status).toBe(201);
    const silence = s.body.silence as { id: string; createdBy: string; active: boolean };
    expect(silence).toMatchObject({ createdBy: usernames.operator, active: true });

    const t = await call("operator", "POST", "/api/webhooks/[id]/test", { params: { id: hook.id } });
    expect(t.status).toBe(202);
    expect(t.body).toMatchObject({ queued: true });
    const queued = await db.notification.findMany({ where: { endpointId: hook.id } });
    expect(queued.map((n) => n.event)).toEqual(["test"]);

    // Operators see endpoints (to test them) but not a URL that may itself be a credential.
    const list = await call("operator", "GET", "/api/webhooks");
    const seen = (list.body.endpoints as { id: string; url: string }[]).find((e) => e.id === hook.id);
    expect(seen?.url).toBe("https://hooks.example.com/…");
    const log = await call("operator", "GET", "/api/webhooks/[id]/deliveries", { params: { id: hook.id } });
    expect(log.status).toBe(200);
    expect(log.body).toMatchObject({ entries: [], nextCursor: null });

    for (const [route, body] of [
      ["/api/webhooks", { name: uniqueName("op-hook"), url: "https://example.com/", format: "generic" }],
      ["/api/alerts/rules", { kind: "storm", params: { minEpisodes: 5 } }],
      ["/api/clusters", { name: uniqueName("op-cluster"), brokers: [bootstrap] }],
    ] as const) {
      expect((await call("operator", "POST", route, { body })).status).toBe(403);
    }

    const expired = await call("operator", "DELETE", "/api/silences/[id]", { params: { id: silence.id } });
    expect(expired.status).toBe(200);
    expect(expired.body.silence).toMatchObject({ active: false });
    const all = await call("viewer", "GET", "/api/silences");
    expect((all.body.recent as { id: string }[]).map((x) => x.id)).toContain(silence.id);
    expect((all.body.active as { id: string }[]).map((x) => x.id)).not.toContain(silence.id);
    expect((await call("operator", "DELETE", "/api/silences/[id]", { params: { id: "nope" } })).status).toBe(
      404,
    );

    expect((await call("admin", "DELETE", "/api/webhooks/[id]", { params: { id: hook.id } })).status).toBe(
      200,
    );
  });
});

describe("rules", () => {
  it("lists the defaults; an admin creates, edits and deletes an override", async () => {
    const cluster = await newCluster();
    const list = await call("viewer", "GET", "/api/alerts/rules");
    expect(list.status).toBe(200);
    expect((list.body.defaults as { kind: string }[]).map((d) => d.kind)).toEqual([
      "storm",
      "stuck",
      "lag",
      "status",
      "emptied",
    ]);

    const created = await call("admin", "POST", "/api/alerts/rules", {
      body: {
        clusterId: cluster.id,
        groupGlob: "payments-*",
        kind: "lag",
        enabled: true,
        params: { seconds: 60, severity: "critical" },
      },
    });
    expect(created.status).toBe(201);
    const rule = created.body.rule as { id: string; cluster: string; params: Record<string, unknown> };
    expect(rule).toMatchObject({ cluster: cluster.name, params: { seconds: 60, severity: "critical" } });

    const dup = await call("admin", "POST", "/api/alerts/rules", {
      body: { clusterId: cluster.id, groupGlob: "payments-*", kind: "lag", params: {} },
    });
    expect(dup.status).toBe(409);

    const bad = await call("admin", "POST", "/api/alerts/rules", {
      body: { kind: "storm", params: { minEpisodes: 0, bogus: 1 } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.details?.[0]?.path).toBe("params");
    expect(bad.body.error).toMatch(/minEpisodes/);

    const badKind = await call("admin", "POST", "/api/alerts/rules", { body: { kind: "nope" } });
    expect(badKind.status).toBe(400);
    expect(badKind.body.details?.map((d) => d.path)).toEqual(["kind"]);

    const edited = await call("admin", "PATCH", "/api/alerts/rules/[id]", {
      params: { id: rule.id },
      body: { enabled: false, params: { totalOffsets: 1000 } },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.rule).toMatchObject({ enabled: false, params: { totalOffsets: 1000 } });
    // Changing the kind re-validates the params against the new kind.
    const wrongKind = await call("admin", "PATCH", "/api/alerts/rules/[id]", {
      params: { id: rule.id },
      body: { kind: "storm" },
    });
    expect(wrongKind.status).toBe(400);

    expect(
      (await call("admin", "DELETE", "/api/alerts/rules/[id]", { params: { id: rule.id } })).status,
    ).toBe(200);
    expect(
      (await call("admin", "DELETE", "/api/alerts/rules/[id]", { params: { id: rule.id } })).status,
    ).toBe(404);
  });
});

describe("webhooks", () => {
  it("validates URLs, never returns secrets, and reports duplicates", async () => {
    const ftp = await call("admin", "POST", "/api/webhooks", {
      body: { name: uniqueName("ftp"), url: "ftp://example.com/hook", format: "generic" },
    });
    expect(ftp.status).toBe(400);
    expect(ftp.body.error).toMatch(/http or https/);
    expect(ftp.body.details?.[0]?.path).toBe("url");

    const name = uniqueName("adm-hook");
    const secret = "a-very-secret-hmac-key-123";
    const created = await call("admin", "POST", "/api/webhooks", {
      body: { name, url: "https://example.com/hook", format: "slack", secret },
    });
    expect(created.status).toBe(201);
    expect(created.text).not.toContain(secret);
    const hook = created.body.endpoint as { id: string; hasSecret: boolean };
    expect(hook.hasSecret).toBe(true);

    const dup = await call("admin", "POST", "/api/webhooks", {
      body: { name, url: "https://example.com/other", format: "generic" },
    });
    expect(dup.status).toBe(409);

    const patched = await call("admin", "PATCH", "/api/webhooks/[id]", {
      params: { id: hook.id },
      body: { enabled: false },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.endpoint).toMatchObject({ enabled: false, hasSecret: true });

    const list = await call("admin", "GET", "/api/webhooks");
    expect(list.text).not.toContain(secret);
    expect((list.body.endpoints as { id: string; url: string }[]).find((e) => e.id === hook.id)?.url).toBe(
      "https://example.com/hook",
    );
    expect((await call("viewer", "GET", "/api/webhooks")).status).toBe(403);

    expect((await call("admin", "DELETE", "/api/webhooks/[id]", { params: { id: hook.id } })).status).toBe(
      200,
    );
    expect(
      (await call("admin", "PATCH", "/api/webhooks/[id]", { params: { id: hook.id }, body: {} })).status,
    ).toBe(404);
    expect(
      (await call("operator", "POST", "/api/webhooks/[id]/test", { params: { id: hook.id } })).status,
    ).toBe(404);
  });
});

describe("clusters", () => {
  it("creates, edits and deletes a cluster; secrets are sealed and never returned", async () => {
    const name = uniqueName("adm-sasl");
    const password = "kafka-password-do-not-echo";
    const created = await call("admin", "POST", "/api/clusters", {
      body: {
        name,
        brokers: ["127.0.0.1:9093", "127.0.0.1:9094"],
        clientId: "gw-admin-test",
        sasl: { mechanism: "scram-sha-512", username: "svc", password },
        tls: {
          enabled: true,
          ca: "-----BEGIN CERTIFICATE-----\nx\n-----END CERTIFICATE-----",
          key: "PRIVATE",
        },
        pollIntervalMs: 2000,
      },
    });
    expect(created.status).toBe(201);
    expect(created.text).not.toContain(password);
    expect(created.text).not.toContain("PRIVATE");
    const c = created.body.cluster as { id: string };
    clusterIds.push(c.id);
    expect(created.body.cluster).toMatchObject({
      name,
      sasl: { mechanism: "scram-sha-512", username: "svc", hasPassword: true },
      tls: { enabled: true, hasKey: true },
      pollIntervalMs: 2000,
      source: "api",
    });
    const row = await db.cluster.findUniqueOrThrow({ where: { id: c.id } });
    expect(row.saslPasswordEnc).toMatch(/^v1:/);
    expect(row.saslPasswordEnc).not.toContain(password);

    const dup = await call("admin", "POST", "/api/clusters", { body: { name, brokers: [bootstrap] } });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toMatch(/already exists/);

    // Omitting the password keeps it; the username can change.
    const patched = await call("admin", "PATCH", "/api/clusters/[cluster]", {
      params: { cluster: name },
      body: { sasl: { mechanism: "scram-sha-256", username: "svc2" }, enabled: false },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.cluster).toMatchObject({
      enabled: false,
      sasl: { mechanism: "scram-sha-256", username: "svc2", hasPassword: true },
    });
    const after = await db.cluster.findUniqueOrThrow({ where: { id: c.id } });
    expect(after.saslPasswordEnc).toBe(row.saslPasswordEnc);

    const configs = await call("admin", "GET", "/api/cluster-admin");
    expect(configs.status).toBe(200);
    expect(configs.text).not.toContain(password);
    expect((await call("operator", "GET", "/api/cluster-admin")).status).toBe(403);

    const badBroker = await call("admin", "POST", "/api/clusters", {
      body: { name: uniqueName("bad"), brokers: ["no-port"] },
    });
    expect(badBroker.status).toBe(400);
    expect(badBroker.body.details?.[0]?.path).toBe("brokers.0");

    expect(
      (await call("admin", "DELETE", "/api/clusters/[cluster]", { params: { cluster: c.id } })).status,
    ).toBe(200);
    expect(
      (await call("admin", "DELETE", "/api/clusters/[cluster]", { params: { cluster: c.id } })).status,
    ).toBe(404);
  });

  it("tests a connection step by step: the local broker works", async () => {
    const r = await call("admin", "POST", "/api/clusters/test-connection", {
      body: { name: "probe", brokers: [bootstrap] },
    });
    expect(r.status).toBe(200);
    const body = r.body as unknown as {
      ok: boolean;
      steps: { step: string; status: string; message: string }[];
      cluster: { brokers: { nodeId: number }[]; topicCount: number; groupCount: number } | null;
    };
    expect(body.ok).toBe(true);
    expect(Object.fromEntries(body.steps.map((s) => [s.step, s.status]))).toEqual({
      dns: "ok",
      tcp: "ok",
      tls: "skipped",
      apiVersions: "ok",
      sasl: "skipped",
      metadata: "ok",
      listGroups: "ok",
    });
    expect(body.cluster?.brokers.length).toBeGreaterThan(0);
    expect(body.cluster?.groupCount).toBeGreaterThanOrEqual(0);

    // A saved cluster by id works the same.
    const saved = await newCluster();
    const byId = await call("admin", "POST", "/api/clusters/test-connection", {
      body: { clusterId: saved.id },
    });
    expect(byId.body.ok).toBe(true);
  });

  it("tests a connection step by step: a closed port fails clearly and fast", async () => {
    const started = Date.now();
    const r = await call("admin", "POST", "/api/clusters/test-connection", {
      body: {
        brokers: ["127.0.0.1:1"],
        sasl: { mechanism: "plain", username: "u", password: "pw-never-shown" },
      },
    });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(r.status).toBe(200);
    expect(r.text).not.toContain("pw-never-shown");
    const steps = r.body.steps as { step: string; status: string; message: string }[];
    expect(r.body.ok).toBe(false);
    expect(steps.find((s) => s.step === "tcp")).toMatchObject({
      status: "failed",
      message: "connection refused at 127.0.0.1:1",
    });
    expect(steps.find((s) => s.step === "metadata")?.status).toBe("skipped");
  });

  it("SASL against a listener without SASL is a clear failure", async () => {
    const r = await call("admin", "POST", "/api/clusters/test-connection", {
      body: {
        brokers: [bootstrap],
        sasl: { mechanism: "plain", username: "alice", password: "pw-secret-1" },
      },
    });
    expect(r.body.ok).toBe(false);
    expect(r.text).not.toContain("pw-secret-1");
    const failed = (r.body.steps as { status: string; message: string }[]).find((s) => s.status === "failed");
    expect(failed?.message).toMatch(/SASL authentication failed for user alice/);
  });
});

describe("bad requests", () => {
  it.each([
    ["/api/alerts/rules", "{not json"],
    ["/api/silences", "{not json"],
    ["/api/webhooks", "["],
    ["/api/clusters", "nope"],
    ["/api/clusters/test-connection", ""],
  ])("malformed JSON to %s is a 400", async (route, raw) => {
    const r = await call("admin", "POST", route, { raw });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/JSON|empty/);
    expect(r.body.details).toBeInstanceOf(Array);
  });

  it("unknown fields and silences without an end are 400 with details", async () => {
    const r = await call("operator", "POST", "/api/silences", { body: { comment: "x", bogus: true } });
    expect(r.status).toBe(400);
    expect(r.body.details?.map((d) => d.path).sort()).toEqual(["", "endsAt"]);
  });
});
