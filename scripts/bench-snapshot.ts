// npm run bench:snapshot [-- --groups 200,1000,2000 --runs 5 --keep]
// Creates N consumer groups (each with committed offsets on a 10-partition topic) on a broker of
// its own, then measures, in the same run: groupwatch's snapshot cycle (wall time, requests) and
// Kafka's own `kafka-consumer-groups --describe --all-groups` on the same cluster, with ratios.
import { execFile } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

import { Kafka, logLevel } from "kafkajs";

import { AlertTracker } from "../lib/collector/alert-tracker";
import { LagTracker } from "../lib/collector/lag-tracker";
import { TimelineTracker } from "../lib/collector/timeline-tracker";
import { createPrisma, type PrismaClient } from "../lib/db/client";
import { GroupRowFilter, upsertGroups } from "../lib/db/queries/groups";
import { takeSnapshot, type SnapshotResult } from "../lib/kafka/snapshot";
import { KafkaWire } from "../lib/kafka/wire";
import { logger } from "../lib/logger";

const exec = promisify(execFile);
const root = path.resolve(import.meta.dirname, "..");
const argv = process.argv.slice(2);
const arg = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] ? argv[i + 1]! : fallback;
};
const stages = arg("groups", "200,1000,2000").split(",").map(Number);
const runs = Number(arg("runs", "5"));
const port = Number(arg("port", "9592"));
const keep = argv.includes("--keep");
const PARTITIONS = 10;
const TOPIC = "bench-topic";
const env = {
  ...process.env,
  KAFKA_PORT: String(port),
  GROUPWATCH_KAFKA_HOME: path.join(os.homedir(), ".cache/groupwatch/bench"),
};
const script = path.join(root, "scripts/kafka.sh");
const bootstrap = `127.0.0.1:${port}`;

const dbUrl =
  process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/groupwatch_bench_pipeline";

/** The collector's persistence steps for one cycle, each timed (ms). */
async function persistCycle(
  db: PrismaClient,
  clusterId: string,
  result: SnapshotResult,
  t: { lag: LagTracker; timeline: TimelineTracker; alerts: AlertTracker; rows: GroupRowFilter },
) {
  const step = async <T>(f: () => Promise<T>): Promise<[T, number]> => {
    const s = performance.now();
    return [await f(), performance.now() - s];
  };
  const { snapshot } = result;
  const [times, lagMs] = await step(() => t.lag.observe(snapshot));
  const seconds = new Map([...times].map(([g, x]) => [g, x.seconds]));
  const [written, groupsMs] = await step(async () => {
    const changed = t.rows.changed(snapshot, seconds);
    await upsertGroups(db, clusterId, snapshot, result.listingComplete, seconds, changed);
    t.rows.commit();
    return changed.length;
  });
  const [, timelineMs] = await step(() =>
    t.timeline.apply(result, {
      pollIntervalMs: 5000,
      sessionTimeoutMs: 45_000,
      maxPollIntervalMs: 300_000,
      commitIntervalMs: 5000,
    }),
  );
  const [, historyMs] = await step(() => t.lag.record(snapshot, times));
  const [, alertsMs] = await step(() =>
    t.alerts.apply(snapshot, result.listingComplete, times, (g) => t.timeline.stateSince(g)),
  );
  return { written, ms: { lagMs, groupsMs, timelineMs, historyMs, alertsMs } };
}

async function pipelineDb(): Promise<PrismaClient> {
  const admin = new URL(dbUrl);
  admin.pathname = "/postgres";
  const { default: pg } = await import("pg");
  const c = new pg.Client({ connectionString: admin.toString() });
  await c.connect();
  const name = decodeURIComponent(new URL(dbUrl).pathname.slice(1));
  await c.query(`drop database if exists "${name.replace(/"/g, '""')}" with (force)`);
  await c.query(`create database "${name.replace(/"/g, '""')}"`);
  await c.end();
  await exec(path.join(root, "node_modules/.bin/prisma"), ["migrate", "deploy"], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: dbUrl, CHECKPOINT_DISABLE: "1" },
  });
  return createPrisma(dbUrl);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (n: number) => `${n.toFixed(0)} ms`;

async function timeKafkaTool(args: string[]): Promise<{ ms: number; stdout: string }> {
  const t = performance.now();
  const { stdout } = await exec("bash", [script, "consumer-groups", ...args], { env, maxBuffer: 256 << 20 });
  return { ms: performance.now() - t, stdout };
}

async function main() {
  process.stdout.write(`starting a benchmark broker on ${bootstrap}\n`);
  await exec("bash", [script, "start"], { env });
  const kafka = new Kafka({ clientId: "gw-bench", brokers: [bootstrap], logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  if (!(await admin.listTopics()).includes(TOPIC)) {
    await admin.createTopics({ topics: [{ topic: TOPIC, numPartitions: PARTITIONS }], waitForLeaders: true });
  }
  const producer = kafka.producer();
  await producer.connect();
  await producer.send({
    topic: TOPIC,
    messages: Array.from({ length: 1000 }, (_, i) => ({ value: `m${i}`, partition: i % PARTITIONS })),
  });
  await producer.disconnect();

  const wire = KafkaWire.create(
    { clusterName: "bench", brokers: [bootstrap], clientId: "groupwatch-bench" },
    logger.child({ bench: true }),
  );
  await wire.connect();
  const results: string[] = [];
  const persisted: string[] = [];
  const db = await pipelineDb();
  let created = (await admin.listGroups()).groups.filter((g) => g.groupId.startsWith("bench-g-")).length;

  for (const n of stages) {
    process.stdout.write(`creating groups up to ${n} (have ${created})\n`);
    const todo = Array.from(
      { length: Math.max(0, n - created) },
      (_, i) => `bench-g-${String(created + i).padStart(5, "0")}`,
    );
    for (let i = 0; i < todo.length; i += 50) {
      await Promise.all(
        todo.slice(i, i + 50).map((groupId, j) =>
          admin.setOffsets({
            groupId,
            topic: TOPIC,
            partitions: Array.from({ length: PARTITIONS }, (_, p) => ({
              partition: p,
              offset: String((i + j + p) % 100),
            })),
          }),
        ),
      );
    }
    created = Math.max(created, n);

    await takeSnapshot(wire); // warm-up: connections, metadata
    const times: number[] = [];
    let requests = 0;
    let groups = 0;
    for (let r = 0; r < runs; r++) {
      const t = performance.now();
      const { snapshot } = await takeSnapshot(wire);
      times.push(performance.now() - t);
      requests = Object.values(snapshot.poll.requests).reduce((a, b) => a + b, 0);
      groups = snapshot.groups.filter((g) => g.groupId.startsWith("bench-g-")).length;
    }
    if (groups !== n) throw new Error(`snapshot saw ${groups} bench groups, expected ${n}`);

    // The same snapshot through the collector's persistence (a fresh cluster row per size):
    // current rows, lag in seconds, timeline, lag history, consumer status and alert rules.
    const cluster = await db.cluster.create({ data: { name: `bench-${n}`, brokers: [bootstrap] } });
    const trackers = {
      lag: new LagTracker(db, cluster.id),
      timeline: new TimelineTracker(db, cluster.id),
      alerts: new AlertTracker(
        db,
        { id: cluster.id, name: cluster.name },
        { renotifyMs: 3_600_000, linkBase: "" },
      ),
      rows: new GroupRowFilter(),
    };
    const steps: Awaited<ReturnType<typeof persistCycle>>[] = [];
    for (let r = 0; r < runs + 1; r++) {
      const s = await persistCycle(db, cluster.id, await takeSnapshot(wire), trackers);
      const sum = Object.values(s.ms).reduce((a, b) => a + b, 0);
      // The first cycle creates every row: reported apart.
      if (r > 0) steps.push(s);
      else process.stdout.write(`first cycle (every row new): ${ms(sum)}\n`);
    }
    // Rows rewritten: only groups whose row changed (here: the lag in seconds of lagging groups
    // drifting by 1 s and 10 %, with cycles back to back), so report both kinds of cycle.
    const row = (label: string, xs: typeof steps) => {
      if (xs.length === 0) return;
      const med = (k: keyof (typeof xs)[number]["ms"]) => median(xs.map((x) => x.ms[k]));
      const total = median(xs.map((x) => Object.values(x.ms).reduce((a, b) => a + b, 0)));
      persisted.push(
        `| ${n} | ${label} (${xs.length}) | ${median(xs.map((x) => x.written))} | ${ms(total)} | ${ms(med("groupsMs"))} | ${ms(med("lagMs"))} | ${ms(med("timelineMs"))} | ${ms(med("historyMs"))} | ${ms(med("alertsMs"))} |`,
      );
      process.stdout.write(`${persisted.at(-1)}\n`);
    };
    row(
      "nothing changed",
      steps.filter((x) => x.written === 0),
    );
    row(
      "some rows changed",
      steps.filter((x) => x.written > 0),
    );

    const tool = await timeKafkaTool(["--describe", "--all-groups"]);
    const rows = tool.stdout.split("\n").filter((l) => l.startsWith("bench-g-")).length;
    if (rows !== n * PARTITIONS)
      throw new Error(`kafka-consumer-groups printed ${rows} rows, expected ${n * PARTITIONS}`);
    const ours = median(times);
    results.push(
      `| ${n} | ${ms(ours)} (min ${ms(Math.min(...times))}) | ${requests} | ${ms(tool.ms)} | ${(tool.ms / ours).toFixed(1)}x |`,
    );
    process.stdout.write(`${results.at(-1)}\n`);
  }
  const jvm = await timeKafkaTool(["--list", "--state", "Dead"]);

  await wire.disconnect();
  await admin.disconnect();
  await db.$disconnect();
  if (!keep) await exec("bash", [script, "stop", "--wipe"], { env });

  process.stdout.write(
    [
      "",
      `snapshot benchmark: 1 broker (Kafka on ${bootstrap}), topic of ${PARTITIONS} partitions, ${runs} cycles per size (median)`,
      "| groups | groupwatch cycle | requests/cycle | kafka-consumer-groups --describe --all-groups | ratio |",
      "|---|---|---|---|---|",
      ...results,
      `(kafka-consumer-groups --list, i.e. the tool's JVM start + one request: ${ms(jvm.ms)})`,
      "",
      `persistence per cycle (PostgreSQL ${new URL(dbUrl).host}, medians over ${runs} cycles after the first):`,
      "| groups | cycles | rows rewritten | total | current rows | lag in seconds | timeline | lag history | status + alerts |",
      "|---|---|---|---|---|---|---|---|---|",
      ...persisted,
      "",
    ].join("\n"),
  );
}

main().catch((e: unknown) => {
  process.stderr.write(`bench failed: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
