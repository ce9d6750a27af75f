// npm run bench:snapshot [-- --groups 200,1000,2000 --runs 5 --keep]
// Creates N consumer groups (each with committed offsets on a 10-partition topic) on a broker of
// its own, then measures, in the same run: groupwatch's snapshot cycle (wall time, requests) and
// Kafka's own `kafka-consumer-groups --describe --all-groups` on the same cluster, with ratios.
import { execFile } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

import { Kafka, logLevel } from "kafkajs";

import { takeSnapshot } from "../lib/kafka/snapshot";
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
    ].join("\n"),
  );
}

main().catch((e: unknown) => {
  process.stderr.write(`bench failed: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
