import { spawn, execFile, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

import type { FullConfig } from "@playwright/test";
import pg from "pg";

import { createUser } from "../../lib/auth/users";
import { createPrisma } from "../../lib/db/client";
import { E2E_USERS } from "./users";

// Once per `npm run test:e2e`:
//   1. a fresh database (E2E_DATABASE_URL, default groupwatch_e2e on the local PostgreSQL),
//      dropped and re-created, migrated, with the users of ./users.ts;
//   2. `next build`, unless .next is newer than every source (E2E_SKIP_BUILD=1 skips it always);
//   3. `next start` on the configured baseURL;
//   4. the real collector polling the Kafka broker on 127.0.0.1:9092 as cluster "e2e" (the
//      broker is reused when one answers, else started here and stopped in teardown).
// The teardown stops what this setup started, never a broker it found running.

const exec = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");
const bin = (name: string) => path.join(root, "node_modules/.bin", name);
const quiet = { CHECKPOINT_DISABLE: "1", NEXT_TELEMETRY_DISABLED: "1" };

async function freshDatabase(url: string): Promise<void> {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const quoted = `"${name.replace(/"/g, '""')}"`;
    await client.query(`drop database if exists ${quoted} with (force)`);
    await client.query(`create database ${quoted}`);
  } finally {
    await client.end();
  }
  await exec(bin("prisma"), ["migrate", "deploy"], {
    cwd: root,
    env: { ...process.env, ...quiet, DATABASE_URL: url },
  });
  const db = createPrisma(url);
  try {
    for (const u of Object.values(E2E_USERS)) await createUser(db, u);
  } finally {
    await db.$disconnect();
  }
}

function newestMtime(p: string): number {
  if (!existsSync(p)) return 0;
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(p)) {
    if (entry === "generated" || entry === "node_modules") continue;
    newest = Math.max(newest, newestMtime(path.join(p, entry)));
  }
  return newest;
}

async function buildIfStale(): Promise<void> {
  if (process.env.E2E_SKIP_BUILD === "1") return;
  const buildId = path.join(root, ".next/BUILD_ID");
  const built = existsSync(buildId) ? statSync(buildId).mtimeMs : 0;
  const sources = Math.max(
    ...["app", "components", "lib", "next.config.js", "proxy.ts", "package-lock.json"].map((p) =>
      newestMtime(path.join(root, p)),
    ),
  );
  if (built > sources) return;
  const started = Date.now();
  process.stdout.write("[e2e] next build ...\n");
  await exec(bin("next"), ["build"], { cwd: root, env: { ...process.env, ...quiet }, maxBuffer: 64 << 20 });
  process.stdout.write(`[e2e] next build took ${Math.round((Date.now() - started) / 1000)} s\n`);
}

export const E2E_KAFKA = "127.0.0.1:9092";
export const E2E_CLUSTER = "e2e";
export const E2E_SESSION_TIMEOUT_MS = 6000;

async function kafkaScript(args: string[]): Promise<void> {
  await exec("bash", [path.join(root, "scripts/kafka.sh"), ...args], {
    cwd: root,
    env: { ...process.env, KAFKA_PORT: E2E_KAFKA.split(":")[1] },
    maxBuffer: 16 << 20,
  });
}

/** Starts a broker unless one answers; true when this call started it. */
async function ensureKafka(): Promise<boolean> {
  const running = await kafkaScript(["status"]).then(
    () => true,
    () => false,
  );
  if (running) return false;
  process.stdout.write("[e2e] no Kafka on 127.0.0.1:9092: starting one\n");
  await kafkaScript(["start"]);
  return true;
}

async function stopChild(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  await Promise.race([exited, new Promise((r) => setTimeout(r, graceMs))]);
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
}

async function healthy(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/api/health`)).ok;
  } catch {
    return false;
  }
}

export default async function globalSetup(config: FullConfig): Promise<() => Promise<void>> {
  const baseURL = config.projects[0]?.use.baseURL;
  if (!baseURL) throw new Error("playwright.config.ts sets no baseURL");
  if (await healthy(baseURL)) throw new Error(`${baseURL} is already taken: set E2E_PORT`);
  const databaseUrl = process.env.E2E_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/groupwatch_e2e";

  let startedKafka = false;
  await Promise.all([
    freshDatabase(databaseUrl),
    buildIfStale(),
    ensureKafka().then((started) => {
      startedKafka = started;
    }),
  ]);

  const { hostname, port } = new URL(baseURL);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "groupwatch-e2e-"));
  let output = "";
  const server = spawn(bin("next"), ["start", "-p", port, "-H", hostname], {
    cwd: root,
    env: {
      ...process.env,
      ...quiet,
      NODE_ENV: "production",
      DATABASE_URL: databaseUrl,
      NEXTAUTH_SECRET: randomBytes(32).toString("base64"),
      GROUPWATCH_DATA_DIR: dataDir,
      GROUPWATCH_ADMIN_PASSWORD: "",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  server.stdout.on("data", (c: Buffer) => (output += c.toString()));
  server.stderr.on("data", (c: Buffer) => (output += c.toString()));

  const deadline = Date.now() + 60_000;
  while (!(await healthy(baseURL))) {
    if (server.exitCode !== null) throw new Error(`next start exited (${server.exitCode}):\n${output}`);
    if (Date.now() > deadline) throw new Error(`next start did not answer within 60 s:\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }

  // One node process (tsx as a loader), so SIGTERM reaches the collector itself.
  let collectorOutput = "";
  const collector = spawn(process.execPath, ["--import", "tsx", path.join(root, "lib/collector/main.ts")], {
    cwd: root,
    env: {
      ...process.env,
      ...quiet,
      DATABASE_URL: databaseUrl,
      GROUPWATCH_CLUSTERS: JSON.stringify([
        {
          name: E2E_CLUSTER,
          brokers: E2E_KAFKA,
          pollIntervalMs: 1000,
          sessionTimeoutMs: E2E_SESSION_TIMEOUT_MS,
          // kafkajs commits after every batch: with Kafka's 5 s default a crash (commits stop a
          // session timeout before the member vanishes) and a clean leave overlap at 1 s polls.
          commitIntervalMs: 1000,
        },
      ]),
      GROUPWATCH_SECRET_KEY: "e2e-secret-key-0123456789",
      GROUPWATCH_DATA_DIR: ".data/e2e",
      GROUPWATCH_CONFIG_REFRESH_MS: "1000",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  collector.stdout.on("data", (c: Buffer) => (collectorOutput += c.toString()));
  collector.stderr.on("data", (c: Buffer) => (collectorOutput += c.toString()));
  collector.once("exit", (code, signal) => {
    if (code !== 0 && signal !== "SIGTERM")
      process.stdout.write(`[e2e] collector exited (${code ?? signal}):\n${collectorOutput.slice(-3000)}\n`);
  });

  return async () => {
    await Promise.all([stopChild(collector, 15_000), stopChild(server)]);
    rmSync(dataDir, { recursive: true, force: true });
    if (startedKafka) await kafkaScript(["stop"]);
  };
}
