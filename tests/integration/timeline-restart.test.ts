import { Kafka, logLevel } from "kafkajs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

import { createPrisma, type PrismaClient } from "../../lib/db/client";
import { waitFor } from "../../scripts/lib/process";
import { startKafkajsConsumer, startTs, uniqueName, type Managed } from "../fixtures/processes";

// A collector restart continues the timeline from the stored state: the first cycle after it
// emits no "member joined" for members that were already there and duplicates no episode.

const databaseUrl = inject("databaseUrl");
const bootstrap = inject("kafkaBootstrap");
const clusterName = uniqueName("restart");
let db: PrismaClient;
const running: Managed[] = [];

const collectorEnv = {
  DATABASE_URL: databaseUrl,
  GROUPWATCH_DATA_DIR: ".data/test",
  GROUPWATCH_SECRET_KEY: "integration-test-secret-key",
  GROUPWATCH_CONFIG_REFRESH_MS: "500",
  GROUPWATCH_LEASE_TTL_MS: "2000",
  GROUPWATCH_COLLECTOR_ID: "restart-collector",
  GROUPWATCH_CLUSTERS: JSON.stringify([
    { name: clusterName, brokers: bootstrap, pollIntervalMs: 1000, sessionTimeoutMs: 6000 },
  ]),
};

beforeAll(() => {
  db = createPrisma(databaseUrl);
});

afterAll(async () => {
  await Promise.all(running.map((p) => p.stop()));
  await db.cluster.deleteMany({ where: { name: clusterName } });
  await db.$disconnect();
});

describe("collector restart", () => {
  it("continues the timeline: no spurious joins, no duplicated episodes", async () => {
    const groupId = uniqueName("restart-group");
    const topic = uniqueName("restart-topic");
    const admin = new Kafka({ brokers: [bootstrap], logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions: 2 }], waitForLeaders: true });
    await admin.disconnect();
    const first = startTs("lib/collector/main.ts", [], collectorEnv);
    running.push(first);
    const clusterId = (
      await waitFor("cluster row", () =>
        db.cluster.findUnique({ where: { name: clusterName } }).then((c) => c ?? undefined),
      )
    ).id;
    running.push(
      startKafkajsConsumer({ brokers: [bootstrap], groupId, topics: [topic], clientId: "steady-1" }),
    );
    await waitFor(
      "the group Stable with its member recorded",
      async () => {
        const g = await db.consumerGroup.findFirst({ where: { clusterId, groupId } });
        return g?.state === "Stable" && g.memberCount === 1;
      },
      { timeoutMs: 60_000 },
    );
    // Let a few cycles pass, then count what the first life of the collector wrote.
    await waitFor("a few cycles", async () => (await db.pollCycle.count({ where: { clusterId } })) >= 5);
    const before = {
      events: await db.groupEvent.count({ where: { clusterId, groupId } }),
      episodes: await db.rebalanceEpisode.count({ where: { clusterId, groupId } }),
      sessions: await db.memberSession.findMany({
        where: { clusterId, groupKey: groupId },
        orderBy: { id: "asc" },
      }),
      intervals: await db.groupStateInterval.count({ where: { clusterId, groupKey: groupId } }),
    };
    await first.stop();
    const stoppedAt = new Date();

    const second = startTs("lib/collector/main.ts", [], collectorEnv);
    running.push(second);
    await waitFor(
      "three cycles after the restart",
      async () => (await db.pollCycle.count({ where: { clusterId, startedAt: { gt: stoppedAt } } })) >= 3,
      {
        timeoutMs: 60_000,
      },
    );
    const joinedAfter = await db.groupEvent.count({
      where: { clusterId, groupId, kind: "member-joined", at: { gt: stoppedAt } },
    });
    expect(joinedAfter).toBe(0);
    expect(
      await db.groupEvent.count({
        where: { clusterId, groupId, kind: "group-appeared", at: { gt: stoppedAt } },
      }),
    ).toBe(0);
    expect(await db.rebalanceEpisode.count({ where: { clusterId, groupId } })).toBe(before.episodes);
    // Without the stored state the first cycle would start the timeline anew: a new state
    // interval, and sessions re-opened as "already there when watching started".
    // Other groups on the shared broker may change state meanwhile (their intervals start after a
    // known earlier poll); a timeline started anew has no such bound (from_after null).
    expect(await db.groupStateInterval.count({ where: { clusterId, groupKey: groupId } })).toBe(
      before.intervals,
    );
    expect(
      await db.groupStateInterval.count({ where: { clusterId, from: { gt: stoppedAt }, fromAfter: null } }),
    ).toBe(0);
    const sessionsAfter = await db.memberSession.findMany({
      where: { clusterId, groupKey: groupId },
      orderBy: { id: "asc" },
    });
    expect(sessionsAfter.map((x) => [x.memberId, x.joinedAt.getTime(), x.joinedObserved, x.leftAt])).toEqual(
      before.sessions.map((x) => [x.memberId, x.joinedAt.getTime(), x.joinedObserved, x.leftAt]),
    );
    expect(await db.groupEvent.count({ where: { clusterId, groupId } })).toBe(before.events);
  });
});
