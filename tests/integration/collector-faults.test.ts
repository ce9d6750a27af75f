import path from "node:path";

import { Kafka, logLevel, type Admin } from "kafkajs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

import { createPrisma, type PrismaClient } from "../../lib/db/client";
import { waitFor } from "../../scripts/lib/process";
import { ownBroker, saslPlainProps } from "../fixtures/kafka-broker";
import { root, startTs, uniqueName, type Managed } from "../fixtures/processes";

// Faults are states, not crashes: a broker of this test's own (with a SASL listener) is stopped
// and restarted under a running collector; clusters with bad credentials and an unknown host
// sit beside it; a topic is deleted under a group. The collector keeps running throughout.

const PORT = 9492;
const broker = ownBroker(PORT, saslPlainProps(PORT, "groupwatch", "right-password"));
const databaseUrl = inject("databaseUrl");
const names = {
  plain: uniqueName("fault-plain"),
  saslOk: uniqueName("fault-sasl-ok"),
  saslBad: uniqueName("fault-sasl-bad"),
  unknownHost: uniqueName("fault-unknown-host"),
};
let db: PrismaClient;
let admin: Admin;
let collector: Managed;

function status(name: string) {
  return db.cluster.findUnique({ where: { name }, include: { status: true } }).then((c) => c?.status ?? null);
}

async function waitForState(name: string, state: "ok" | "error", timeoutMs = 60_000, minFailures = 1) {
  return waitFor(
    `${name} to be ${state}`,
    async () => {
      const s = await status(name);
      if (!s || s.state !== state) return undefined;
      return state === "error" && s.consecutiveFailures < minFailures ? undefined : s;
    },
    { timeoutMs, intervalMs: 250 },
  );
}

beforeAll(async () => {
  await broker.start();
  db = createPrisma(databaseUrl);
  admin = new Kafka({
    clientId: "gw-fault-test",
    brokers: [broker.bootstrap],
    logLevel: logLevel.NOTHING,
  }).admin();
  await admin.connect();
  collector = startTs("lib/collector/main.ts", [], {
    DATABASE_URL: databaseUrl,
    GROUPWATCH_DATA_DIR: path.join(root, ".data/test"),
    GROUPWATCH_SECRET_KEY: "integration-test-secret-key",
    GROUPWATCH_CONFIG_REFRESH_MS: "500",
    GROUPWATCH_COLLECTOR_ID: "fault-collector",
    GROUPWATCH_CLUSTERS: JSON.stringify([
      { name: names.plain, brokers: broker.bootstrap, pollIntervalMs: 1000 },
      {
        name: names.saslOk,
        brokers: `127.0.0.1:${PORT + 2}`,
        pollIntervalMs: 1000,
        sasl: { mechanism: "plain", username: "groupwatch", password: "right-password" },
      },
      {
        name: names.saslBad,
        brokers: `127.0.0.1:${PORT + 2}`,
        pollIntervalMs: 1000,
        sasl: { mechanism: "plain", username: "groupwatch", password: "wrong-password" },
      },
      { name: names.unknownHost, brokers: "no-such-host.invalid:9092", pollIntervalMs: 1000 },
    ]),
  });
});

afterAll(async () => {
  await collector?.stop();
  await admin?.disconnect().catch(() => undefined);
  await db?.cluster.deleteMany({ where: { name: { in: Object.values(names) } } });
  await db?.$disconnect();
  await broker.stop(true);
});

describe("collector faults", () => {
  it("polls over SASL/PLAIN with the right password", async () => {
    const s = await waitForState(names.saslOk, "ok");
    expect(s.brokers).toEqual([expect.objectContaining({ port: PORT + 2 })]);
  });

  it("records wrong SASL credentials as an authentication error", async () => {
    const s = await waitForState(names.saslBad, "error", 60_000, 2);
    expect(s.lastError).toMatch(/SASL|authentication/i);
    expect(s.lastError).not.toContain("wrong-password");
    expect(collector.output()).not.toContain("wrong-password");
  });

  it("records an unknown host as an error", async () => {
    const s = await waitForState(names.unknownHost, "error", 60_000, 2);
    expect(s.lastError).toMatch(/ENOTFOUND|getaddrinfo|EAI_AGAIN|Connection error/i);
  });

  it("records a deleted topic as unknown lag and keeps the cluster healthy", async () => {
    const topic = uniqueName("fault-topic");
    const groupId = uniqueName("fault-group");
    await admin.createTopics({ topics: [{ topic, numPartitions: 2 }], waitForLeaders: true });
    const producer = new Kafka({ brokers: [broker.bootstrap], logLevel: logLevel.NOTHING }).producer();
    await producer.connect();
    await producer.send({
      topic,
      messages: Array.from({ length: 10 }, (_, i) => ({ value: `m${i}`, partition: i % 2 })),
    });
    await producer.disconnect();
    await admin.setOffsets({
      groupId,
      topic,
      partitions: [
        { partition: 0, offset: "1" },
        { partition: 1, offset: "2" },
      ],
    });

    const cluster = await db.cluster.findUniqueOrThrow({ where: { name: names.plain } });
    const row = await waitFor("the group with known lag", async () => {
      const g = await db.consumerGroup.findFirst({ where: { clusterId: cluster.id, groupId } });
      return g && g.maxLag !== null ? g : undefined;
    });
    expect(row.totalLag).toBe(7n);
    expect(row.maxLag).toBe(4n);

    // The broker drops a deleted topic's committed offsets (and then the empty group itself):
    // the collector must follow without errors, ending with the group gone or without that topic.
    await admin.deleteTopics({ topics: [topic] });
    const after = await waitFor("the group without the deleted topic", async () => {
      const g = await db.consumerGroup.findFirst({ where: { clusterId: cluster.id, groupId } });
      if (!g) return undefined;
      const partitions = g.partitions as { topic: string }[];
      return g.deletedAt !== null || !partitions.some((p) => p.topic === topic) ? g : undefined;
    });
    expect(after.totalLag).toBe(0n);
    const s = (await status(names.plain))!;
    expect(s.state).toBe("ok");
    // Cycles racing the deletion may record per-partition errors; later ones are clean.
    await waitFor("a clean cycle after the deletion", async () => {
      const last = await db.pollCycle.findFirst({
        where: { clusterId: cluster.id },
        orderBy: { id: "desc" },
      });
      return last && last.startedAt > after.lastSeenAt && last.ok;
    });
  });

  it("survives the broker stopping and recovers when it restarts", async () => {
    await waitForState(names.plain, "ok");
    await broker.stop();
    const down = await waitForState(names.plain, "error", 60_000, 1);
    expect(down.lastError).toBeTruthy();
    await waitForState(names.saslOk, "error", 60_000, 1);
    expect(collector.child.exitCode).toBeNull();

    await broker.start();
    // Backoff after a few failures is a few seconds; recovery must follow without a restart.
    const up = await waitForState(names.plain, "ok", 90_000);
    expect(up.consecutiveFailures).toBe(0);
    await waitForState(names.saslOk, "ok", 90_000);
    expect(collector.child.exitCode).toBeNull();
  });
});
