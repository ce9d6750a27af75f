// `npm start` and `npm run demo`: runs the whole product on one machine.
//   1. the database: DATABASE_URL, or the embedded PGlite server under GROUPWATCH_DATA_DIR;
//   2. migrations (`prisma migrate deploy`);
//   3. a local Apache Kafka when no cluster is configured (always with --demo);
//   4. the collector, the web app (built first when sources changed) and, with --demo, a small
//      workload of producers and consumer groups;
// and stops everything it started on Ctrl-C.
import { type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

import { loadAuthSecret } from "../lib/auth/secret";
import { ensureAdminUser } from "../lib/auth/bootstrap";
import { parseClustersEnv, ZClusterConfig } from "../lib/config/cluster-config";
import { createPrisma } from "../lib/db/client";
import { seedClusters } from "../lib/db/queries/clusters";
import { parseEnv } from "../lib/env.js";
import { loadSecretKey } from "../lib/secrets";
import { portOpen, run, spawnPrefixed, terminate, waitFor } from "./lib/process";

const root = path.resolve(import.meta.dirname, "..");
const bin = (name: string) => path.join(root, "node_modules", ".bin", name);
// tsx as a loader, not a wrapper: one process per service, so signals reach the program.
const tsEntry = (file: string) => ["--import", "tsx", path.join(root, file)];
const demo = process.argv.includes("--demo");
const env = parseEnv(process.env);
const childEnv: NodeJS.ProcessEnv = { ...process.env, CHECKPOINT_DISABLE: "1", NEXT_TELEMETRY_DISABLED: "1" };
const services: { name: string; child: ChildProcess }[] = [];
let stopKafkaOnExit = false;
let shuttingDown = false;

function say(msg: string) {
  process.stdout.write(`[launch]     ${msg}\n`);
}

async function startEmbeddedDatabase(): Promise<string> {
  const dir = path.resolve(root, env.GROUPWATCH_DATA_DIR, "pglite");
  mkdirSync(dir, { recursive: true });
  const port = env.GROUPWATCH_EMBEDDED_DB_PORT;
  if (await portOpen(port)) {
    throw new Error(
      `port ${port} is taken (another groupwatch running?). Set GROUPWATCH_EMBEDDED_DB_PORT or DATABASE_URL.`,
    );
  }
  say(`starting the embedded database (PGlite) in ${dir} on 127.0.0.1:${port}`);
  const child = spawnPrefixed("db", process.execPath, [
    path.join(root, "node_modules/@electric-sql/pglite-socket/dist/scripts/server.js"),
    `--db=${dir}`,
    `--port=${port}`,
    "--host=127.0.0.1",
    "--max-connections=30",
  ]);
  services.push({ name: "db", child });
  await waitFor("the embedded database", () => child.exitCode === null && portOpen(port), {
    timeoutMs: 120_000,
  });
  return `postgresql://postgres:postgres@127.0.0.1:${port}/postgres?sslmode=disable`;
}

async function kafkaRunning(): Promise<boolean> {
  try {
    await run("kafka", "bash", [path.join(root, "scripts/kafka.sh"), "status"], {
      env: { ...childEnv, KAFKA_PORT: String(env.KAFKA_PORT) },
    });
    return true;
  } catch {
    return false;
  }
}

async function startLocalKafka(): Promise<string> {
  const alreadyRunning = await kafkaRunning();
  if (!alreadyRunning) {
    say(`starting a local Apache Kafka on 127.0.0.1:${env.KAFKA_PORT} (first start downloads the jars)`);
    await run("kafka", "bash", [path.join(root, "scripts/kafka.sh"), "start"], {
      env: { ...childEnv, KAFKA_PORT: String(env.KAFKA_PORT) },
    });
    stopKafkaOnExit = true;
  } else {
    say(`reusing the local Kafka already running on 127.0.0.1:${env.KAFKA_PORT}`);
  }
  return `127.0.0.1:${env.KAFKA_PORT}`;
}

function newestMtime(dir: string): number {
  let newest = 0;
  if (!existsSync(dir)) return 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "generated" || entry.name === "node_modules") continue;
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

async function buildWebIfStale(): Promise<void> {
  const buildId = path.join(root, ".next", "BUILD_ID");
  const built = existsSync(buildId) ? statSync(buildId).mtimeMs : 0;
  const sources = Math.max(
    ...["app", "components", "lib"].map((d) => newestMtime(path.join(root, d))),
    ...["next.config.js", "proxy.ts"].map((f) =>
      existsSync(path.join(root, f)) ? statSync(path.join(root, f)).mtimeMs : 0,
    ),
  );
  if (built > sources) return;
  say("building the web app (next build); later starts skip this until sources change");
  await run("build", bin("next"), ["build"], { cwd: root, env: childEnv });
}

// The local admin, on first start: GROUPWATCH_ADMIN_PASSWORD, or a generated password kept in
// <data dir>/admin-password (0600) and printed this once.
async function ensureLocalAdmin(db: ReturnType<typeof createPrisma>, dataDir: string): Promise<void> {
  const admin = await ensureAdminUser(db, {
    username: env.GROUPWATCH_ADMIN_USER,
    password: env.GROUPWATCH_ADMIN_PASSWORD,
    dataDir,
  });
  if (!admin.created) return;
  if (admin.generatedPassword) {
    say(`created the admin user "${admin.username}" with the password: ${admin.generatedPassword}`);
    say(
      `(also kept in ${admin.passwordFile}; change it, or set GROUPWATCH_ADMIN_PASSWORD before the first start)`,
    );
  } else {
    say(
      `created the admin user "${admin.username}" (password from ${admin.passwordFile ?? "GROUPWATCH_ADMIN_PASSWORD"})`,
    );
  }
}

async function main(): Promise<void> {
  process.on("SIGINT", () => void shutdown(0));
  process.on("SIGTERM", () => void shutdown(0));

  childEnv.DATABASE_URL = env.DATABASE_URL ?? (await startEmbeddedDatabase());
  say("applying database migrations");
  await run("migrate", bin("prisma"), ["migrate", "deploy"], { cwd: root, env: childEnv });

  // A local Kafka is started when nothing else is configured: no GROUPWATCH_CLUSTERS and no
  // cluster rows besides the launcher's own "local" one. --demo always starts it.
  const seeded = parseClustersEnv(env.GROUPWATCH_CLUSTERS);
  const dataDir = path.resolve(root, env.GROUPWATCH_DATA_DIR);
  const db = createPrisma(childEnv.DATABASE_URL);
  try {
    await ensureLocalAdmin(db, dataDir);
    const stored = await db.cluster.count({ where: { source: { not: "local" } } });
    const wantLocal = demo || (env.GROUPWATCH_LOCAL_KAFKA === "auto" && seeded.length === 0 && stored === 0);
    if (wantLocal) {
      const bootstrap = await startLocalKafka();
      const key = loadSecretKey(env.GROUPWATCH_SECRET_KEY, dataDir);
      const local = ZClusterConfig.parse({ name: "local", brokers: [bootstrap], pollIntervalMs: 2000 });
      await seedClusters(db, [local], key, "local");
    }
  } finally {
    await db.$disconnect();
  }

  // One session secret for every web process, generated once into the data dir when unset.
  childEnv.NEXTAUTH_SECRET = loadAuthSecret(env.NEXTAUTH_SECRET ?? env.AUTH_SECRET, dataDir);
  await buildWebIfStale();
  const collector = spawnPrefixed("collector", bin("tsx"), ["lib/collector/main.ts"], {
    cwd: root,
    env: childEnv,
  });
  services.push({ name: "collector", child: collector });
  if (demo) {
    const workload = spawnPrefixed("workload", process.execPath, tsEntry("scripts/demo-workload.ts"), {
      cwd: root,
      env: { ...childEnv, DEMO_BROKERS: `127.0.0.1:${env.KAFKA_PORT}` },
    });
    services.push({ name: "workload", child: workload });
  }
  const web = spawnPrefixed("web", bin("next"), ["start", "-p", String(env.PORT), "-H", env.HOST], {
    cwd: root,
    env: childEnv,
  });
  services.push({ name: "web", child: web });

  for (const s of services) {
    s.child.on("exit", (code, signal) => {
      if (shuttingDown) return;
      say(`${s.name} exited unexpectedly (${signal ?? `exit ${code}`}); stopping everything`);
      void shutdown(1);
    });
  }
  const url = `http://${env.HOST === "0.0.0.0" ? "127.0.0.1" : env.HOST}:${env.PORT}`;
  await waitFor("the web app", async () => (await fetch(`${url}/api/health`)).ok, { timeoutMs: 120_000 });
  say(`groupwatch is running: ${url}   (Ctrl-C stops it)`);
}

async function shutdown(code: number): Promise<void> {
  if (shuttingDown) return;
  shuttingDown = true;
  say("stopping");
  // Reverse start order: web and workload, then the collector, then the database.
  for (const s of [...services].reverse()) await terminate(s.child);
  if (stopKafkaOnExit) {
    await run("kafka", "bash", [path.join(root, "scripts/kafka.sh"), "stop"], { env: childEnv }).catch(
      (e: unknown) => say(String(e)),
    );
  }
  say("stopped");
  process.exit(code);
}

main().catch((e: unknown) => {
  say(`failed: ${e instanceof Error ? e.message : String(e)}`);
  void shutdown(1);
});
