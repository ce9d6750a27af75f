import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

import pg from "pg";
import type { TestProject } from "vitest/node";

// Once per `npm test`: a real Kafka (started here, or reused when one already answers on
// KAFKA_PORT) and a real PostgreSQL database with the migrations applied. Tests create their
// own topics, groups and cluster rows with unique names; nothing shared is wiped.

const exec = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    kafkaBootstrap: string;
    kafkaVersion: string;
  }
}

async function kafka(args: string[], env: NodeJS.ProcessEnv) {
  return exec("bash", [path.join(root, "scripts/kafka.sh"), ...args], { env, maxBuffer: 16 << 20 });
}

async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const dbName = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query("select 1 from pg_database where datname = $1", [dbName]);
    if (!rowCount) await client.query(`create database "${dbName.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
  await exec(path.join(root, "node_modules/.bin/prisma"), ["migrate", "deploy"], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: url, CHECKPOINT_DISABLE: "1" },
  });
}

export default async function setup(project: TestProject) {
  const port = process.env.KAFKA_PORT ?? "9092";
  const env = { ...process.env, KAFKA_PORT: port };
  const databaseUrl = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/groupwatch_test";

  let startedKafka = false;
  const running = await kafka(["status"], env).then(
    () => true,
    () => false,
  );
  await Promise.all([
    running
      ? Promise.resolve()
      : kafka(["start"], env).then(() => {
          startedKafka = true;
        }),
    ensureDatabase(databaseUrl),
  ]);
  const { stdout } = await kafka(["status"], env);
  const version = /version[ =:]+(\S+)/i.exec(stdout)?.[1] ?? "unknown";

  project.provide("databaseUrl", databaseUrl);
  project.provide("kafkaBootstrap", `127.0.0.1:${port}`);
  project.provide("kafkaVersion", version);

  return async () => {
    if (startedKafka && process.env.KEEP_KAFKA !== "1") await kafka(["stop"], env);
  };
}
