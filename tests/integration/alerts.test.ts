import { Kafka, logLevel } from "kafkajs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

import { verifySignature } from "../../lib/alerts/sign";
import { ALLOW_ANY_HOST } from "../../lib/alerts/url-policy";
import { createPrisma, type PrismaClient } from "../../lib/db/client";
import { createWebhookEndpoint } from "../../lib/db/queries/webhooks";
import type { AlertNotification } from "../../lib/domain/alerts/notification";
import { deriveKey } from "../../lib/secrets";
import { waitFor } from "../../scripts/lib/process";
import { startKafkajsConsumer, startTs, uniqueName, type Managed } from "../fixtures/processes";
import { WebhookReceiver, type ReceivedRequest } from "../fixtures/webhook-receiver";

// Alerts end to end: real consumers drive a rebalance storm and a lag spike on the real broker,
// the real collector decides, and a real HTTP receiver on loopback gets the webhooks (signed,
// retried with the same idempotency key). A collector SIGKILLed after writing an incident
// still gets it delivered by the next one.

const databaseUrl = inject("databaseUrl");
const bootstrap = inject("kafkaBootstrap");
const SECRET_KEY = "integration-test-secret-key";
const HOOK_SECRET = "hook-secret-for-tests";
const clusterName = uniqueName("alerts");
let db: PrismaClient;
let receiver: WebhookReceiver;
let endpointId = "";
let clusterId = "";
const running: Managed[] = [];
const kafka = new Kafka({ brokers: [bootstrap], logLevel: logLevel.NOTHING });

const collectorEnv = (name: string, cluster: string, extra: Record<string, string> = {}) => ({
  DATABASE_URL: databaseUrl,
  GROUPWATCH_DATA_DIR: ".data/test",
  GROUPWATCH_SECRET_KEY: SECRET_KEY,
  GROUPWATCH_CONFIG_REFRESH_MS: "500",
  GROUPWATCH_LEASE_TTL_MS: "2000",
  GROUPWATCH_COLLECTOR_ID: name,
  GROUPWATCH_CLUSTERS: JSON.stringify([
    { name: cluster, brokers: bootstrap, pollIntervalMs: 1000, sessionTimeoutMs: 6000 },
  ]),
  ...extra,
});

const notification = (r: ReceivedRequest) => JSON.parse(r.body) as AlertNotification;
const about = (groupId: string, rule: string, event?: string) => (r: ReceivedRequest) => {
  if (r.headers["x-groupwatch-event"] === "test") return false;
  const n = notification(r);
  return n.group.id === groupId && n.rule === rule && (event === undefined || n.event === event);
};

async function clusterRow(name: string): Promise<string> {
  const c = await waitFor("cluster row", () =>
    db.cluster.findUnique({ where: { name } }).then((x) => x ?? undefined),
  );
  return c.id;
}

beforeAll(async () => {
  db = createPrisma(databaseUrl);
  receiver = await WebhookReceiver.start();
  const created = await createWebhookEndpoint(
    db,
    { name: uniqueName("hook"), url: receiver.url(), format: "generic", secret: HOOK_SECRET },
    { secretKey: deriveKey(SECRET_KEY), policy: ALLOW_ANY_HOST },
  );
  if (!created.ok) throw new Error(created.error);
  endpointId = created.value.id;
  running.push(startTs("lib/collector/main.ts", [], collectorEnv("alerts-collector", clusterName)));
  clusterId = await clusterRow(clusterName);
  // Rules for this cluster: off for every group (the shared broker holds other tests' groups),
  // on with short windows for this test's groups, through group-glob overrides.
  await db.alertRule.createMany({
    data: [
      ...(["storm", "stuck", "lag", "status", "emptied"] as const).map((kind) => ({
        clusterId,
        kind,
        enabled: false,
      })),
      { clusterId, groupGlob: "storm-group-*", kind: "storm", params: { minEpisodes: 3, windowMs: 25_000 } },
      {
        clusterId,
        groupGlob: "lag-group-*",
        kind: "lag",
        params: { totalOffsets: 300, seconds: null, sustainMs: 3000 },
      },
    ],
  });
});

afterAll(async () => {
  await Promise.all(running.map((p) => p.stop()));
  await db.webhookEndpoint.deleteMany({ where: { id: endpointId } });
  await db.cluster.deleteMany({ where: { name: { startsWith: clusterName } } });
  await receiver.close();
  await db.$disconnect();
});

async function groupRow(groupId: string) {
  return db.consumerGroup.findFirst({ where: { clusterId, groupId } });
}

describe("alerts", () => {
  it("a rebalance storm fires one incident, delivered despite failures, and resolves", async () => {
    const topic = uniqueName("storm-topic");
    const groupId = uniqueName("storm-group");
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions: 2 }], waitForLeaders: true });
    await admin.disconnect();
    const steady = startKafkajsConsumer({
      brokers: [bootstrap],
      groupId,
      topics: [topic],
      clientId: "steady",
    });
    running.push(steady);
    await waitFor("the group stable with one member", async () => {
      const g = await groupRow(groupId);
      return g?.state === "Stable" && g.memberCount === 1;
    });
    // The receiver refuses the first two deliveries: the trigger arrives on the third attempt.
    receiver.failNext(2, 503);
    for (let i = 0; i < 2; i++) {
      const extra = startKafkajsConsumer({
        brokers: [bootstrap],
        groupId,
        topics: [topic],
        clientId: `extra-${i}`,
      });
      running.push(extra);
      await waitFor(`member ${i} joined`, async () => {
        const g = await groupRow(groupId);
        return g?.state === "Stable" && g.memberCount === 2;
      });
      await extra.stop();
      await waitFor(`member ${i} left`, async () => {
        const g = await groupRow(groupId);
        return g?.state === "Stable" && g.memberCount === 1;
      });
    }
    const [trigger] = await receiver.waitForRequests(1, about(groupId, "storm", "trigger"), 30_000);
    const attempts = receiver.withKey(String(trigger?.headers["idempotency-key"]));
    expect(attempts.map((r) => r.status)).toEqual([503, 503, 200]);
    expect(new Set(attempts.map((r) => r.body)).size).toBe(1);
    const n = notification(trigger!);
    expect(n.sequence).toBe(1);
    expect(n.summary).toMatch(/rebalances/);
    expect(n.links.timeline).toContain(encodeURIComponent(groupId));
    expect(
      verifySignature({
        secret: HOOK_SECRET,
        body: trigger!.body,
        timestamp: String(trigger!.headers["x-groupwatch-timestamp"]),
        signature: String(trigger!.headers["x-groupwatch-signature"]),
        nowMs: Date.now(),
      }),
    ).toBe(true);

    // From the rebalance that crossed the threshold to the first webhook request.
    const episodes = await db.rebalanceEpisode.findMany({
      where: { clusterId, groupId, rebalance: true },
      orderBy: { detectedAt: "asc" },
    });
    expect(episodes.length).toBeGreaterThanOrEqual(3);
    const firstAttempt = attempts[0]!.at;
    const nth = episodes.filter((e) => e.detectedAt.getTime() <= firstAttempt).at(-1)!;
    console.log(
      `alerts: storm webhook ${firstAttempt - nth.detectedAt.getTime()} ms after the poll that saw rebalance #${episodes.indexOf(nth) + 1}`,
    );

    // The group settles; once fewer than 3 rebalances are in the window the incident resolves.
    const [resolve] = await receiver.waitForRequests(1, about(groupId, "storm", "resolve"), 60_000);
    expect(notification(resolve!).incidentId).toBe(n.incidentId);
    expect(notification(resolve!).sequence).toBe(2);
    const incidents = await db.incident.findMany({ where: { clusterId, groupId, kind: "storm" } });
    expect(incidents.map((i) => [i.id, i.state])).toEqual([[n.incidentId, "resolved"]]);
    const delivered = receiver.requests.filter((r) => r.status === 200 && about(groupId, "storm")(r));
    expect(delivered.map((r) => notification(r).event)).toEqual(["trigger", "resolve"]);
    // Three attempts for the trigger, one for the resolve (recorded just after the answer).
    await waitFor(
      "4 recorded attempts",
      async () =>
        (await db.deliveryAttempt.count({ where: { notification: { incidentId: n.incidentId } } })) === 4,
    );
    await steady.stop();
  });

  it("a producer outrunning a slow consumer fires a lag incident that resolves when it catches up", async () => {
    const topic = uniqueName("lag-topic");
    const groupId = uniqueName("lag-group");
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true });
    await admin.disconnect();
    const slow = startKafkajsConsumer({
      brokers: [bootstrap],
      groupId,
      topics: [topic],
      clientId: "slow",
      processDelayMs: 10,
    });
    running.push(slow);
    await waitFor("the slow consumer stable", async () => (await groupRow(groupId))?.state === "Stable");
    const producer = kafka.producer();
    await producer.connect();
    for (let i = 0; i < 10; i++) {
      await producer.send({
        topic,
        messages: Array.from({ length: 150 }, (_, j) => ({ value: `${i}-${j}` })),
      });
    }
    await producer.disconnect();
    const [trigger] = await receiver.waitForRequests(1, about(groupId, "lag", "trigger"), 60_000);
    const n = notification(trigger!);
    expect(Number(n.details.totalLag)).toBeGreaterThanOrEqual(300);
    const [resolve] = await receiver.waitForRequests(1, about(groupId, "lag", "resolve"), 120_000);
    expect(notification(resolve!).incidentId).toBe(n.incidentId);
    const g = await groupRow(groupId);
    expect(g?.totalLag).toBeLessThan(300n);
    expect(await db.incident.count({ where: { clusterId, groupId, kind: "lag" } })).toBe(1);
    await slow.stop();
  });

  it("an incident written by a collector killed before delivering is delivered after restart", async () => {
    // No other collector may deliver meanwhile: stop the shared one.
    await Promise.all(running.splice(0).map((p) => p.stop()));
    const cluster = `${clusterName}-kill`;
    const topic = uniqueName("kill-topic");
    const groupId = uniqueName("kill-group");
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true });
    await admin.disconnect();
    const producer = kafka.producer();
    await producer.connect();
    const produce = (n: number) =>
      producer.send({ topic, messages: Array.from({ length: n }, (_, i) => ({ value: String(i) })) });
    await produce(5);

    const deciding = startTs(
      "lib/collector/main.ts",
      [],
      collectorEnv("alerts-deciding", cluster, { GROUPWATCH_DELIVER_WEBHOOKS: "false" }),
    );
    running.push(deciding);
    const killedClusterId = await clusterRow(cluster);
    // A consumer joins (the group is seen with a member), then leaves; records arrive after it:
    // the group went Empty with lag, and "emptied with lag" fires.
    const member = startKafkajsConsumer({
      brokers: [bootstrap],
      groupId,
      topics: [topic],
      clientId: "leaver",
    });
    running.push(member);
    await waitFor("the group seen with its member, caught up", async () => {
      const g = await db.consumerGroup.findFirst({ where: { clusterId: killedClusterId, groupId } });
      return (
        g?.state === "Stable" && g.memberCount === 1 && g.totalLag === 0n && g.unknownLagPartitions === 0
      );
    });
    await member.stop();
    await produce(10);
    await producer.disconnect();
    const incident = await waitFor("the emptied incident and its outbox row", async () => {
      const i = await db.incident.findFirst({
        where: { clusterId: killedClusterId, groupId, kind: "emptied", state: "open" },
        include: { notifications: true },
      });
      return i && i.notifications.some((x) => x.endpointId === endpointId) ? i : undefined;
    });
    await deciding.kill();
    expect(receiver.requests.filter(about(groupId, "emptied"))).toEqual([]);

    running.push(startTs("lib/collector/main.ts", [], collectorEnv("alerts-delivering", cluster)));
    const key = `${incident.id}:1:${endpointId}`;
    const got = await receiver.waitForRequests(1, (r) => r.headers["idempotency-key"] === key, 30_000);
    expect(notification(got[0]!).event).toBe("trigger");
    expect(notification(got[0]!).incidentId).toBe(incident.id);
    await waitFor("delivered", async () => {
      const row = await db.notification.findUnique({ where: { idempotencyKey: key } });
      return row?.status === "delivered";
    });
    // Still one incident: the second collector continued it instead of opening another.
    expect(await db.incident.count({ where: { clusterId: killedClusterId, groupId, kind: "emptied" } })).toBe(
      1,
    );
    expect(receiver.withKey(key)).toHaveLength(1);
  });
});
