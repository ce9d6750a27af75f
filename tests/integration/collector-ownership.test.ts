import path from "node:path";

import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

import { createPrisma, type PrismaClient } from "../../lib/db/client";
import { waitFor } from "../../scripts/lib/process";
import { root, startTs, uniqueName, type Managed } from "../fixtures/processes";

// Two collector processes against one database: each cluster is polled by exactly one of them,
// and when the owner is SIGKILLed the other takes the cluster over once the lease expires.

const databaseUrl = inject("databaseUrl");
const bootstrap = inject("kafkaBootstrap");
const LEASE_TTL_MS = 3000;
const REFRESH_MS = 500;
const name = uniqueName("owned");
let db: PrismaClient;
let clusterId: string;
const collectors: Record<string, Managed> = {};

function startCollector(id: string): Managed {
  return startTs("lib/collector/main.ts", [], {
    DATABASE_URL: databaseUrl,
    GROUPWATCH_DATA_DIR: path.join(root, ".data/test"),
    GROUPWATCH_SECRET_KEY: "integration-test-secret-key",
    GROUPWATCH_CONFIG_REFRESH_MS: String(REFRESH_MS),
    GROUPWATCH_LEASE_TTL_MS: String(LEASE_TTL_MS),
    GROUPWATCH_COLLECTOR_ID: id,
    GROUPWATCH_CLUSTERS: "",
  });
}

beforeAll(async () => {
  db = createPrisma(databaseUrl);
  const row = await db.cluster.create({
    data: { name, brokers: [bootstrap], pollIntervalMs: 1000, source: "api" },
  });
  clusterId = row.id;
  collectors.a = startCollector(`${name}-a`);
  collectors.b = startCollector(`${name}-b`);
});

afterAll(async () => {
  await Promise.all(Object.values(collectors).map((c) => c.stop()));
  await db.cluster.deleteMany({ where: { name } });
  await db.$disconnect();
});

async function pollersSince(since: Date): Promise<string[]> {
  const rows = await db.pollCycle.findMany({
    where: { clusterId, startedAt: { gte: since } },
    select: { collectorId: true },
    distinct: ["collectorId"],
  });
  return rows.map((r) => r.collectorId);
}

describe("several collectors", () => {
  it("polls each cluster from exactly one collector, and hands it over when the owner dies", async () => {
    const t0 = new Date();
    await waitFor(
      "five cycles of the cluster",
      async () => (await db.pollCycle.count({ where: { clusterId } })) >= 5,
      {
        timeoutMs: 60_000,
      },
    );
    const pollers = await pollersSince(t0);
    expect(pollers).toHaveLength(1);
    const owner = pollers[0]!;
    const lease = await db.clusterLease.findUniqueOrThrow({ where: { clusterId } });
    expect(lease.ownerId).toBe(owner);

    const ownerKey = owner.endsWith("-a") ? "a" : "b";
    const other = `${name}-${ownerKey === "a" ? "b" : "a"}`;
    const killedAt = Date.now();
    await collectors[ownerKey]!.kill();

    const firstByOther = await waitFor(
      "a cycle by the surviving collector",
      () =>
        db.pollCycle
          .findFirst({ where: { clusterId, collectorId: other }, orderBy: { startedAt: "asc" } })
          .then((r) => r ?? undefined),
      { timeoutMs: 30_000 },
    );
    const takeoverMs = firstByOther.startedAt.getTime() - killedAt;
    // Bounded by the lease TTL plus one refresh interval plus one poll start (plus slack).
    expect(takeoverMs).toBeLessThan(LEASE_TTL_MS + REFRESH_MS + 3000);
    process.stdout.write(`takeover after owner SIGKILL: ${takeoverMs} ms (lease TTL ${LEASE_TTL_MS} ms)\n`);

    const t1 = new Date(firstByOther.startedAt.getTime() + 1);
    await waitFor(
      "three more cycles",
      async () => (await db.pollCycle.count({ where: { clusterId, startedAt: { gte: t1 } } })) >= 3,
    );
    expect(await pollersSince(t1)).toEqual([other]);
  });
});
