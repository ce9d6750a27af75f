import { Kafka, logLevel, type Admin, type Producer } from "kafkajs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

import { createPrisma, type PrismaClient } from "../../lib/db/client";
import { waitFor } from "../../scripts/lib/process";
import { startJavaConsumer } from "../fixtures/java-consumer";
import { startKafkajsConsumer, startTs, uniqueName, type Managed } from "../fixtures/processes";

// The read API against what the real collector recorded from a real broker: a member joins, a
// second one joins, one is SIGKILLed, a topic grows partitions. The route handlers are called
// as Next calls them (a Request and a params promise), signed in as a viewer.

const databaseUrl = inject("databaseUrl");
const bootstrap = inject("kafkaBootstrap");
const SESSION_MS = 6000;
const clusterName = uniqueName("api");
const prefix = uniqueName("api-grp");
// An id with a space and a slash: it travels URL-encoded in the path, decoded by Next.
const groupId = `${prefix} orders/1`;
const growGroupId = `${prefix}-grow`;
const viewer = uniqueName("api-viewer").replace(/-/g, "_");
const started = Date.now();

process.env.DATABASE_URL = databaseUrl;
process.env.NEXTAUTH_SECRET ??= "api-integration-test-session-secret";
process.env.GROUPWATCH_DATA_DIR ??= ".data/test";
process.env.LOG_LEVEL ??= "silent";

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
const routes: Record<string, Handler> = {};
let cookie = "";
let db: PrismaClient;
let admin: Admin;
let producer: Producer;
let feeding: NodeJS.Timeout | undefined;
let clusterId: string;
let topic: string;
let growTopic: string;
const live: Managed[] = [];

async function call(
  route: string,
  params: Record<string, string>,
  query = "",
  headers: Record<string, string> = { cookie },
) {
  const handler = routes[route];
  if (!handler) throw new Error(`no route ${route}`);
  const res = await handler(new Request(`http://localhost${route}${query}`, { headers }), {
    params: Promise.resolve(params),
  });
  const text = await res.text();
  let body: unknown = text;
  if (res.headers.get("content-type")?.startsWith("application/json")) body = JSON.parse(text);
  return { status: res.status, headers: res.headers, body: body as Record<string, unknown>, text };
}

interface Episode {
  causeKinds: string[];
  causes: { kind: string; clientId?: string; topic?: string }[];
  endedBy: string | null;
}

async function timeline(id: string) {
  const r = await call(
    "/api/clusters/[cluster]/groups/[group]/timeline",
    { cluster: clusterName, group: id },
    `?from=${started - 60_000}`,
  );
  expect(r.status).toBe(200);
  return r.body as unknown as {
    episodes: Episode[];
    intervals: { state: string; from: string; to: string | null }[];
    sessions: { clientId: string; leftAt: string | null; leftHow: string | null }[];
    events: { kind: string }[];
    truncated: boolean;
  };
}

const waitForEpisode = (id: string, kind: string, timeoutMs = 45_000) =>
  waitFor(
    `an episode of ${id} caused by ${kind}`,
    async () => (await timeline(id)).episodes.find((e) => e.causeKinds.includes(kind) && e.endedBy !== null),
    { timeoutMs, intervalMs: 300 },
  );

const stable = (id: string, members: number) =>
  waitFor(
    `${id} Stable with ${members} member(s)`,
    async () => {
      const g = await db.consumerGroup.findFirst({ where: { clusterId, groupId: id } });
      return g?.state === "Stable" && g.memberCount === members;
    },
    { timeoutMs: 45_000, intervalMs: 300 },
  );

beforeAll(async () => {
  db = createPrisma(databaseUrl);
  const kafka = new Kafka({ clientId: "gw-api-test", brokers: [bootstrap], logLevel: logLevel.NOTHING });
  admin = kafka.admin();
  producer = kafka.producer();
  await Promise.all([admin.connect(), producer.connect()]);
  topic = uniqueName("api-topic");
  growTopic = uniqueName("api-grow");
  await admin.createTopics({
    topics: [
      { topic, numPartitions: 2 },
      { topic: growTopic, numPartitions: 2 },
    ],
    waitForLeaders: true,
  });
  // Records keep flowing so that a crash leaves evidence (commits stop while records wait).
  feeding = setInterval(() => {
    producer
      .sendBatch({ topicMessages: [{ topic, messages: [{ value: "x" }, { value: "y" }] }] })
      .catch(() => undefined);
  }, 150);

  const { encodeSession } = await import("../../lib/auth/session");
  const { authSecret } = await import("../../lib/auth/secret");
  await db.appUser.create({ data: { username: viewer, role: "viewer", provider: "credentials" } });
  cookie = `next-auth.session-token=${await encodeSession({ username: viewer, role: "viewer" }, authSecret())}`;

  const modules = {
    "/api/clusters": import("../../app/api/clusters/route"),
    "/api/clusters/[cluster]": import("../../app/api/clusters/[cluster]/route"),
    "/api/clusters/[cluster]/groups": import("../../app/api/clusters/[cluster]/groups/route"),
    "/api/clusters/[cluster]/groups/[group]": import("../../app/api/clusters/[cluster]/groups/[group]/route"),
    "/api/clusters/[cluster]/groups/[group]/timeline":
      import("../../app/api/clusters/[cluster]/groups/[group]/timeline/route"),
    "/api/clusters/[cluster]/groups/[group]/lag":
      import("../../app/api/clusters/[cluster]/groups/[group]/lag/route"),
    "/api/clusters/[cluster]/forensics": import("../../app/api/clusters/[cluster]/forensics/route"),
    "/api/incidents": import("../../app/api/incidents/route"),
  };
  for (const [path, m] of Object.entries(modules)) routes[path] = (await m).GET;

  live.push(
    startTs("lib/collector/main.ts", [], {
      DATABASE_URL: databaseUrl,
      GROUPWATCH_DATA_DIR: ".data/test",
      GROUPWATCH_SECRET_KEY: "integration-test-secret-key",
      GROUPWATCH_CONFIG_REFRESH_MS: "500",
      GROUPWATCH_COLLECTOR_ID: "api-collector",
      GROUPWATCH_CLUSTERS: JSON.stringify([
        {
          name: clusterName,
          brokers: bootstrap,
          pollIntervalMs: 1000,
          sessionTimeoutMs: SESSION_MS,
          maxPollIntervalMs: 15_000,
          commitIntervalMs: 1000,
        },
      ]),
    }),
  );
  clusterId = (
    await waitFor("the cluster row", () =>
      db.cluster.findUnique({ where: { name: clusterName } }).then((c) => c ?? undefined),
    )
  ).id;

  const kjs = (clientId: string) => {
    const c = startKafkajsConsumer({
      brokers: [bootstrap],
      groupId,
      topics: [topic],
      clientId,
      sessionTimeoutMs: SESSION_MS,
    });
    live.push(c);
    return c;
  };

  // The partition growth needs a client that refreshes metadata quickly (Java, 1 s): it runs
  // beside the join/crash scenario.
  const growing = (async () => {
    live.push(
      startJavaConsumer({
        bootstrap,
        groupId: growGroupId,
        topics: [growTopic],
        clientId: "grower",
        sessionTimeoutMs: SESSION_MS,
        config: { "metadata.max.age.ms": 1000 },
      }),
    );
    await stable(growGroupId, 1);
    await admin.createPartitions({ topicPartitions: [{ topic: growTopic, count: 4 }] });
    await waitForEpisode(growGroupId, "partition-count-changed");
  })();

  kjs("api-1");
  await stable(groupId, 1);
  const victim = kjs("api-2");
  await waitForEpisode(groupId, "member-joined");
  await stable(groupId, 2);
  // The collector must see commits advance on both members' partitions before the crash.
  const sums = new Set<string>();
  await waitFor(
    "the collector seeing commits advance",
    async () => {
      const g = await db.consumerGroup.findFirst({ where: { clusterId, groupId } });
      const parts = (g?.partitions ?? []) as { committedOffset: string | null }[];
      if (parts.length < 2 || parts.some((p) => p.committedOffset === null)) return false;
      sums.add(parts.map((p) => p.committedOffset).join(","));
      return sums.size >= 3;
    },
    { timeoutMs: 30_000, intervalMs: 500 },
  );
  await victim.kill();
  await waitForEpisode(groupId, "member-crashed");
  await stable(groupId, 1);
  await growing;
}, 150_000);

afterAll(async () => {
  clearInterval(feeding);
  await Promise.all(live.map((p) => p.stop()));
  await producer?.disconnect().catch(() => undefined);
  await admin?.deleteTopics({ topics: [topic, growTopic] }).catch(() => undefined);
  await admin?.disconnect().catch(() => undefined);
  await db?.cluster.deleteMany({ where: { name: clusterName } });
  await db?.appUser.deleteMany({ where: { username: viewer } });
  await db?.$disconnect();
});

describe("the read API on what the collector recorded", () => {
  it("lists clusters with their poll status", async () => {
    const r = await call("/api/clusters", {});
    expect(r.status).toBe(200);
    expect(r.headers.get("cache-control")).toBe("no-store");
    const c = (
      r.body.clusters as { name: string; status: { state: string; lastPollAt: string } | null }[]
    ).find((x) => x.name === clusterName);
    expect(c?.status?.state).toBe("ok");
  });

  it("shows one cluster, by name or by id, with brokers and groups by state", async () => {
    for (const ref of [clusterName, clusterId]) {
      const r = await call("/api/clusters/[cluster]", { cluster: ref });
      expect(r.status).toBe(200);
      const c = r.body.cluster as {
        name: string;
        brokers: unknown[];
        controllerId: number | null;
        groupsByState: Record<string, number>;
        counts: { groups: number };
      };
      expect(c.name).toBe(clusterName);
      expect(c.brokers.length).toBeGreaterThan(0);
      expect(c.controllerId).not.toBeNull();
      expect(c.groupsByState.Stable).toBeGreaterThanOrEqual(2);
    }
  });

  it("lists groups: filtered, sorted, paged with a total", async () => {
    const r = await call(
      "/api/clusters/[cluster]/groups",
      { cluster: clusterName },
      `?q=${encodeURIComponent(prefix.toUpperCase())}&sort=name&limit=1`,
    );
    expect(r.status).toBe(200);
    expect(r.body.total).toBe(2);
    const [first] = r.body.groups as { groupId: string }[];
    expect(first?.groupId).toBe(groupId);
    const next = await call(
      "/api/clusters/[cluster]/groups",
      { cluster: clusterName },
      `?q=${encodeURIComponent(prefix)}&sort=name&limit=1&cursor=${r.body.nextCursor as string}`,
    );
    expect((next.body.groups as { groupId: string }[]).map((g) => g.groupId)).toEqual([growGroupId]);
    expect(next.body.nextCursor).toBeNull();

    const byRebalances = await call(
      "/api/clusters/[cluster]/groups",
      { cluster: clusterName },
      `?q=${encodeURIComponent(prefix)}&sort=rebalances1h&state=Stable`,
    );
    const g = (byRebalances.body.groups as Record<string, unknown>[]).find((x) => x.groupId === groupId);
    expect(g).toMatchObject({ state: "Stable", type: "classic", memberCount: 1, deleted: false });
    expect(g?.totalLag).toMatch(/^\d+$/);
    expect(g?.rebalances1h).toBeGreaterThanOrEqual(2);
    expect(g?.rebalances24h).toBe(g?.rebalances1h);
    // A literal "%" matches nothing: LIKE wildcards are escaped.
    const none = await call(
      "/api/clusters/[cluster]/groups",
      { cluster: clusterName },
      `?q=${encodeURIComponent("%")}`,
    );
    expect(none.body.total).toBe(0);
  });

  it("shows a group: members with assignments, partitions with offsets and lag", async () => {
    const r = await call("/api/clusters/[cluster]/groups/[group]", { cluster: clusterName, group: groupId });
    expect(r.status).toBe(200);
    const body = r.body as {
      group: { groupId: string; state: string; memberCount: number };
      members: { clientId: string; assignment: { topic: string; partitions: number[] }[] }[];
      partitions: {
        topic: string;
        partition: number;
        committedOffset: string | null;
        lag: string | null;
        memberId: string | null;
      }[];
      openIncidents: unknown[];
    };
    expect(body.group).toMatchObject({ groupId, state: "Stable", memberCount: 1 });
    expect(body.members.map((m) => m.clientId)).toEqual(["api-1"]);
    expect(body.members[0]?.assignment).toEqual([{ topic, partitions: [0, 1] }]);
    expect(body.partitions.map((p) => p.partition).sort()).toEqual([0, 1]);
    expect(body.partitions.every((p) => p.committedOffset !== null && p.memberId !== null)).toBe(true);
    expect(Array.isArray(body.openIncidents)).toBe(true);
  });

  it("returns the timeline: episodes with causes, intervals and sessions", async () => {
    const t = await timeline(groupId);
    const kinds = t.episodes.flatMap((e) => e.causeKinds);
    expect(kinds).toContain("member-joined");
    expect(kinds).toContain("member-crashed");
    const crash = t.episodes.find((e) => e.causeKinds.includes("member-crashed"));
    expect(crash?.causes.find((c) => c.kind === "member-crashed")?.clientId).toBe("api-2");
    expect(t.intervals.map((i) => i.state)).toContain("Stable");
    expect(t.intervals.at(-1)?.to).toBeNull();
    const victim = t.sessions.find((s) => s.clientId === "api-2");
    expect(victim?.leftHow).toBe("member-crashed");
    expect(t.sessions.find((s) => s.clientId === "api-1")?.leftAt).toBeNull();
    expect(t.truncated).toBe(false);

    const grow = await timeline(growGroupId);
    const cause = grow.episodes.flatMap((e) => e.causes).find((c) => c.kind === "partition-count-changed");
    expect(cause?.topic).toBe(growTopic);
  });

  it("returns lag history on a step grid", async () => {
    const r = await call(
      "/api/clusters/[cluster]/groups/[group]/lag",
      { cluster: clusterName, group: groupId },
      `?from=${started - 60_000}&step=5&partitions=true`,
    );
    expect(r.status).toBe(200);
    const body = r.body as {
      stepSeconds: number;
      points: { at: string; totalLag: string | null; samples: number }[];
      partitions: { topic: string; partition: number; lag: (string | null)[] }[];
    };
    expect(body.stepSeconds).toBe(5);
    // Written by the collector's lag history (lag_sample); empty until it writes samples.
    expect(body.points.length).toBeGreaterThan(0);
    expect(body.points.some((p) => p.samples > 0 && /^\d+$/.test(p.totalLag ?? ""))).toBe(true);
    expect(body.partitions.map((p) => p.partition).sort()).toEqual([0, 1]);
    expect(body.partitions[0]?.lag).toHaveLength(body.points.length);
  });

  it("writes the forensics report: Markdown naming each rebalance and its cause, or JSON", async () => {
    const q = `?from=${started - 60_000}&format=md`;
    const md = await call("/api/clusters/[cluster]/forensics", { cluster: clusterName }, q);
    expect(md.status).toBe(200);
    expect(md.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(md.headers.get("content-disposition")).toMatch(
      new RegExp(`^attachment; filename="groupwatch-${clusterName}-\\d{8}T\\d{6}Z\\.md"$`),
    );
    expect(md.text).toMatch(/\*\*member-joined\*\* client api\\-2/);
    expect(md.text).toMatch(/\*\*member-crashed\*\* client api\\-2/);
    expect(md.text).toContain("**partition-count-changed**");

    const json = await call(
      "/api/clusters/[cluster]/forensics",
      { cluster: clusterName },
      `?from=${started - 60_000}&group=${encodeURIComponent(groupId)}`,
    );
    expect(json.status).toBe(200);
    const summary = json.body.summary as {
      rebalances: number;
      membersLost: number;
      groups: { groupId: string }[];
    };
    expect(summary.groups.map((g) => g.groupId)).toEqual([groupId]);
    expect(summary.rebalances).toBeGreaterThanOrEqual(2);
    expect(summary.membersLost).toBe(1);
  });

  it("lists incidents", async () => {
    const r = await call(
      "/api/incidents",
      {},
      `?cluster=${encodeURIComponent(clusterName)}&state=open&limit=10`,
    );
    expect(r.status).toBe(200);
    expect(Array.isArray(r.body.incidents)).toBe(true);
  });

  const g = () => ({ cluster: clusterName, group: groupId });
  it.each([
    {
      label: "an inverted range",
      route: "/api/clusters/[cluster]/groups/[group]/timeline",
      params: g,
      query: `?from=${Date.now()}&to=${Date.now() - 60_000}`,
      status: 400,
      error: /from must be before to/,
    },
    {
      label: "a garbage date",
      route: "/api/clusters/[cluster]/groups/[group]/timeline",
      params: g,
      query: "?from=yesterday-ish",
      status: 400,
      error: /from: "yesterday-ish" is neither ISO-8601 nor epoch milliseconds/,
    },
    {
      label: "a window over 31 days",
      route: "/api/clusters/[cluster]/forensics",
      params: () => ({ cluster: clusterName }),
      query: "?from=2026-01-01&to=2026-11-30",
      status: 400,
      error: /31 days at most/,
    },
    {
      label: "too many lag points",
      route: "/api/clusters/[cluster]/groups/[group]/lag",
      params: g,
      query: "?from=2026-11-01&to=2026-11-02&step=1",
      status: 400,
      error: /step: step 1 s gives 86,400 points; 5,000 at most/,
    },
    {
      label: "limit=100000",
      route: "/api/clusters/[cluster]/groups",
      params: () => ({ cluster: clusterName }),
      query: "?limit=100000",
      status: 400,
      error: /limit: limit may be 500 at most/,
    },
    {
      label: "sort=DROP TABLE",
      route: "/api/clusters/[cluster]/groups",
      params: () => ({ cluster: clusterName }),
      query: `?sort=${encodeURIComponent("DROP TABLE consumer_group")}`,
      status: 400,
      error: /sort: sort must be one of lag, lagSeconds/,
    },
    {
      label: "an unknown parameter",
      route: "/api/clusters/[cluster]/groups",
      params: () => ({ cluster: clusterName }),
      query: "?sorting=lag",
      status: 400,
      error: /unknown parameter: sorting/,
    },
    {
      label: "a parameter given twice",
      route: "/api/clusters/[cluster]/groups",
      params: () => ({ cluster: clusterName }),
      query: "?limit=1&limit=2",
      status: 400,
      error: /give each parameter once: limit/,
    },
    {
      label: "a forged cursor",
      route: "/api/clusters/[cluster]/groups",
      params: () => ({ cluster: clusterName }),
      query: `?cursor=${Buffer.from(JSON.stringify({ s: "lag", o: "desc", v: "1); DROP TABLE x;--", k: "a" })).toString("base64url")}`,
      status: 400,
      error: /cursor is not one this API issued/,
    },
    {
      label: "an over-long group id",
      route: "/api/clusters/[cluster]/groups/[group]",
      params: () => ({ cluster: clusterName, group: "x".repeat(10_001) }),
      query: "",
      status: 400,
      error: /a group id may be 10,000 characters at most/,
    },
  ])("rejects $label with a 400 and details", async ({ route, params, query, status, error }) => {
    const r = await call(route, params(), query);
    expect(r.status).toBe(status);
    expect(r.body.error).toMatch(error);
    expect((r.body.details as unknown[]).length).toBeGreaterThan(0);
  });

  it.each([
    {
      label: "an unknown cluster",
      route: "/api/clusters/[cluster]",
      params: { cluster: "no-such-cluster" },
      error: 'unknown cluster "no-such-cluster"',
    },
    {
      label: "an unknown group",
      route: "/api/clusters/[cluster]/groups/[group]/timeline",
      params: { cluster: clusterName, group: "no-such-group" },
      error: `unknown group "no-such-group" in cluster "${clusterName}"`,
    },
    {
      label: "an SQL-looking group id",
      route: "/api/clusters/[cluster]/groups/[group]",
      params: { cluster: clusterName, group: "x'; DROP TABLE consumer_group;--" },
      error: `unknown group "x'; DROP TABLE consumer_group;--" in cluster "${clusterName}"`,
    },
  ])("answers $label with a 404", async ({ route, params, error }) => {
    const r = await call(route, params as Record<string, string>);
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error });
    expect(await db.consumerGroup.count({ where: { clusterId } })).toBeGreaterThanOrEqual(2);
  });

  it("needs a signed-in viewer", async () => {
    const r = await call("/api/clusters", {}, "", {});
    expect(r.status).toBe(401);
    expect(r.body.error).toEqual(expect.any(String));
  });
});
