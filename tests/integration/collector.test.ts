import path from "node:path";

import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

import { waitFor } from "../../scripts/lib/process";
import { createPrisma, type PrismaClient } from "../../lib/db/client";
import { root, startTs, uniqueName, type Managed } from "../fixtures/processes";

// The real collector process against the real broker and PostgreSQL.

const databaseUrl = inject("databaseUrl");
const bootstrap = inject("kafkaBootstrap");
let db: PrismaClient;
let collector: Managed;
const good = uniqueName("it-good");
const bad = uniqueName("it-unreachable");
const added = uniqueName("it-added");

beforeAll(() => {
  db = createPrisma(databaseUrl);
  collector = startTs("lib/collector/main.ts", [], {
    DATABASE_URL: databaseUrl,
    GROUPWATCH_DATA_DIR: path.join(root, ".data/test"),
    GROUPWATCH_SECRET_KEY: "integration-test-secret-key",
    GROUPWATCH_CONFIG_REFRESH_MS: "500",
    GROUPWATCH_COLLECTOR_ID: "it-collector",
    LOG_LEVEL: "info",
    GROUPWATCH_CLUSTERS: JSON.stringify([
      { name: good, brokers: bootstrap, pollIntervalMs: 1000 },
      // Nothing listens on port 1: connection refused, every cycle.
      {
        name: bad,
        brokers: "127.0.0.1:1",
        pollIntervalMs: 1000,
        sasl: { mechanism: "scram-sha-256", username: "u", password: "s3cret-never-logged" },
      },
    ]),
  });
});

afterAll(async () => {
  await collector.stop();
  await db.cluster.deleteMany({ where: { name: { in: [good, bad, added] } } });
  await db.$disconnect();
});

function statusOf(name: string) {
  return db.cluster.findUnique({ where: { name }, include: { status: true } });
}

describe("collector", () => {
  it("records the brokers of a reachable cluster", async () => {
    const row = await waitFor("status of the good cluster", async () => {
      const c = await statusOf(good);
      return c?.status?.state === "ok" ? c : undefined;
    });
    const brokers = row.status!.brokers as { host: string; port: number; nodeId: number }[];
    expect(brokers).toHaveLength(1);
    expect(brokers[0]).toMatchObject({ host: "127.0.0.1", port: Number(bootstrap.split(":")[1]) });
    expect(row.status!.collectorId).toBe("it-collector");
    expect(row.status!.lastError).toBeNull();
  });

  it("records an unreachable cluster as an error and keeps running", async () => {
    const row = await waitFor(
      "two failures of the unreachable cluster",
      async () => {
        const c = await statusOf(bad);
        return c?.status && c.status.consecutiveFailures >= 2 ? c : undefined;
      },
      { timeoutMs: 60_000 },
    );
    expect(row.status!.state).toBe("error");
    expect(row.status!.lastError).toMatch(/ECONNREFUSED|connect|Connection/i);
    expect(collector.child.exitCode).toBeNull();
    // The good cluster keeps being polled meanwhile.
    const before = (await statusOf(good))!.status!.lastPollAt.getTime();
    await waitFor(
      "a newer poll of the good cluster",
      async () => (await statusOf(good))!.status!.lastPollAt.getTime() > before,
    );
  });

  it("stores the SASL password sealed and never logs it", async () => {
    const row = await statusOf(bad);
    expect(row!.saslPasswordEnc).toMatch(/^v1:/);
    expect(row!.saslPasswordEnc).not.toContain("s3cret-never-logged");
    expect(collector.output()).not.toContain("s3cret-never-logged");
  });

  it("picks up a cluster added to the database without a restart", async () => {
    await db.cluster.create({
      data: { name: added, brokers: [bootstrap], pollIntervalMs: 1000, source: "api" },
    });
    const row = await waitFor(
      "status of the added cluster",
      async () => {
        const c = await statusOf(added);
        return c?.status?.state === "ok" ? c : undefined;
      },
      { timeoutMs: 30_000 },
    );
    expect(row.status!.brokers).toHaveLength(1);
  });

  it("stops on SIGTERM within the grace period with exit code 0", async () => {
    const started = Date.now();
    await collector.stop(20_000);
    expect(collector.child.exitCode).toBe(0);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(collector.output()).toContain("collector stopped");
  });
});
