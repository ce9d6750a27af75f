import { Kafka, logLevel, type Producer } from "kafkajs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

import { DEFAULT_RETENTION } from "../../lib/config/retention";
import { createPrisma, type PrismaClient } from "../../lib/db/client";
import { enforceRetention } from "../../lib/db/queries/retention";
import { waitFor } from "../../scripts/lib/process";
import { startTs, uniqueName, type Managed } from "../fixtures/processes";

// Lag in seconds and lag history from the real collector on the real broker: a group committed
// at a record produced at a known time has the lag in seconds that time implies; rows are
// written only when something changed; retention rolls raw rows into minute and hour buckets.

const databaseUrl = inject("databaseUrl");
const bootstrap = inject("kafkaBootstrap");
const clusterName = uniqueName("lag");
let db: PrismaClient;
const running: Managed[] = [];
let producer: Producer | null = null;

beforeAll(() => {
  db = createPrisma(databaseUrl);
});

afterAll(async () => {
  await producer?.disconnect();
  await Promise.all(running.map((p) => p.stop()));
  await db.cluster.deleteMany({ where: { name: clusterName } });
  await db.$disconnect();
});

describe("lag history", () => {
  it("measures lag in seconds, writes change-only and rolls up", async () => {
    const topic = uniqueName("lag-topic");
    const idle = uniqueName("lag-idle");
    const behind = uniqueName("lag-behind");
    const caughtUp = uniqueName("lag-caught-up");
    const kafka = new Kafka({ brokers: [bootstrap], logLevel: logLevel.NOTHING });
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({
      topics: [
        { topic, numPartitions: 1 },
        { topic: idle, numPartitions: 1 },
      ],
      waitForLeaders: true,
    });
    producer = kafka.producer();
    await producer.connect();
    await producer.send({ topic: idle, messages: [{ value: "a" }, { value: "b" }] });
    await admin.setOffsets({ groupId: caughtUp, topic: idle, partitions: [{ partition: 0, offset: "2" }] });

    running.push(
      startTs("lib/collector/main.ts", [], {
        DATABASE_URL: databaseUrl,
        GROUPWATCH_DATA_DIR: ".data/test",
        GROUPWATCH_SECRET_KEY: "integration-test-secret-key",
        GROUPWATCH_CONFIG_REFRESH_MS: "500",
        GROUPWATCH_COLLECTOR_ID: "lag-collector",
        GROUPWATCH_CLUSTERS: JSON.stringify([
          { name: clusterName, brokers: bootstrap, pollIntervalMs: 1000 },
        ]),
      }),
    );
    const clusterId = (
      await waitFor("cluster polled", () =>
        db.cluster
          .findUnique({ where: { name: clusterName }, include: { status: true } })
          .then((c) => (c?.status?.state === "ok" ? c : undefined)),
      )
    ).id;

    // A steady stream: one record every 200 ms with its produce time, for 8 s.
    const producedAt = new Map<number, number>();
    const deadline = Date.now() + 8000;
    while (Date.now() < deadline) {
      const now = Date.now();
      const [meta] = await producer.send({
        topic,
        acks: -1,
        messages: [{ value: String(now), timestamp: String(now) }],
      });
      producedAt.set(Number(meta?.baseOffset), now);
      await new Promise((r) => setTimeout(r, 200));
    }
    const committed = Math.floor(producedAt.size / 4);
    await admin.setOffsets({
      groupId: behind,
      topic,
      partitions: [{ partition: 0, offset: String(committed) }],
    });
    await admin.disconnect();

    // Lag in seconds = poll time - produce time of the committed (next to read) record.
    const row = await waitFor("the lagging group with a lag in seconds", async () => {
      const g = await db.consumerGroup.findFirst({ where: { clusterId, groupId: behind } });
      return g && g.lagSeconds !== null ? g : undefined;
    });
    const expected = (row.lastSeenAt.getTime() - (producedAt.get(committed) ?? NaN)) / 1000;
    expect(row.totalLag).toBe(BigInt(producedAt.size - committed));
    expect(Math.abs((row.lagSeconds ?? NaN) - expected)).toBeLessThan(1.5);

    // The caught-up group on an idle topic: lag 0 s, and no new rows while nothing changes.
    const caught = await waitFor("the caught-up group", () =>
      db.consumerGroup.findFirst({ where: { clusterId, groupId: caughtUp } }).then((g) => g ?? undefined),
    );
    expect(caught.lagSeconds).toBe(0);
    // Change-only: the row version (xmin) of the idle group does not move across cycles.
    const version = () =>
      db.$queryRaw<{ v: string }[]>`
        SELECT xmin::text AS v FROM consumer_group WHERE cluster_id = ${clusterId}::uuid AND group_key = ${caughtUp}`.then(
        (r) => r[0]?.v,
      );
    const rowVersion = await version();
    const cycles = await db.pollCycle.count({ where: { clusterId } });
    await waitFor(
      "five more cycles",
      async () => (await db.pollCycle.count({ where: { clusterId } })) >= cycles + 5,
    );
    expect(await db.lagSample.count({ where: { clusterId, groupKey: caughtUp } })).toBe(1);
    expect(await version()).toBe(rowVersion);
    const samples = await db.lagSample.findMany({
      where: { clusterId, groupKey: behind },
      orderBy: { at: "asc" },
    });
    expect(samples.length).toBeGreaterThanOrEqual(1);
    const last = samples.at(-1);
    expect(last?.partitions).toEqual([
      [
        topic,
        0,
        String(committed),
        String(producedAt.size),
        String(producedAt.size - committed),
        expect.any(Number),
      ],
    ]);
    // The offset table survives a restart: it is saved within the first minute.
    await running.pop()?.stop();
    const saved = await db.partitionOffsetHistory.findUnique({
      where: { clusterId_topic_partition: { clusterId, topic, partition: 0 } },
    });
    expect((saved?.points as unknown[] | undefined)?.length ?? 0).toBeGreaterThan(3);

    // Retention: raw → 1-minute buckets (all rows are older than "now + 1 min")...
    const later = new Date(Date.now() + 61_000);
    const rawCount = await db.lagSample.count({ where: { clusterId } });
    const r1 = await enforceRetention(db, clusterId, { ...DEFAULT_RETENTION, lagRawMs: 1 }, later);
    expect(r1.rolledUpRaw).toBeGreaterThan(0);
    expect(await db.lagSample.count({ where: { clusterId } })).toBe(0);
    const minutes = await db.lagRollup.findMany({
      where: { clusterId, groupKey: behind, bucketSeconds: 60 },
    });
    expect(minutes.reduce((n, m) => n + m.samples, 0)).toBe(samples.length);
    expect(
      (await db.lagRollup.aggregate({ where: { clusterId }, _sum: { samples: true } }))._sum.samples,
    ).toBe(rawCount);
    const maxRaw = samples.reduce((m, s) => (s.totalLag > m ? s.totalLag : m), 0n);
    expect(minutes.reduce((m, s) => (s.totalLagMax > m ? s.totalLagMax : m), 0n)).toBe(maxRaw);
    expect(Object.keys(minutes[0]?.partitions as object)).toEqual([`${topic}:0`]);
    // ...then 1-minute → 1-hour buckets, then gone.
    const muchLater = new Date(Date.now() + 3 * 3600_000);
    await enforceRetention(db, clusterId, { ...DEFAULT_RETENTION, lagRawMs: 1, lagMinuteMs: 1 }, muchLater);
    const hours = await db.lagRollup.findMany({ where: { clusterId, groupKey: behind } });
    expect(hours.map((h) => h.bucketSeconds)).toEqual(hours.map(() => 3600));
    expect(hours.reduce((n, h) => n + h.samples, 0)).toBe(samples.length);
    expect(hours.reduce((m, s) => (s.totalLagMax > m ? s.totalLagMax : m), 0n)).toBe(maxRaw);
    await enforceRetention(
      db,
      clusterId,
      { ...DEFAULT_RETENTION, lagRawMs: 1, lagMinuteMs: 1, lagHourMs: 1 },
      muchLater,
    );
    expect(await db.lagRollup.count({ where: { clusterId } })).toBe(0);
  });
});
