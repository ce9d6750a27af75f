// Entry point of the collector process (`npm run collector`): seeds clusters from
// GROUPWATCH_CLUSTERS, polls every enabled cluster, stops cleanly on SIGINT/SIGTERM.
import { hostname } from "node:os";

import { webhookPolicyFromEnv } from "../alerts/url-policy";
import { OutboxDeliverer } from "../alerts/deliverer";
import { parseClustersEnv } from "../config/cluster-config";
import { parseDuration, retentionFrom } from "../config/retention";
import { prisma } from "../db/client";
import { seedClusters } from "../db/queries/clusters";
import { env } from "../env.js";
import { logger } from "../logger";
import { loadSecretKey } from "../secrets";
import { Collector } from "./collector";

async function main(): Promise<void> {
  const config = env();
  const log = logger.child({ component: "collector" });
  const db = prisma();
  const secretKey = loadSecretKey(config.GROUPWATCH_SECRET_KEY, config.GROUPWATCH_DATA_DIR);
  const seeds = parseClustersEnv(config.GROUPWATCH_CLUSTERS);
  if (seeds.length > 0) {
    await seedClusters(db, seeds, secretKey);
    log.info({ clusters: seeds.map((c) => c.name) }, "seeded clusters from GROUPWATCH_CLUSTERS");
  }
  const collectorId = config.GROUPWATCH_COLLECTOR_ID ?? `${hostname()}:${process.pid}`;
  const retention = retentionFrom(config);
  const publicUrl = config.GROUPWATCH_PUBLIC_URL ?? `http://${config.HOST}:${config.PORT}`;
  const renotify = config.GROUPWATCH_ALERT_RENOTIFY;
  const collector = new Collector({
    db,
    secretKey,
    log,
    collectorId,
    configRefreshMs: config.GROUPWATCH_CONFIG_REFRESH_MS,
    leaseTtlMs: Math.max(config.GROUPWATCH_LEASE_TTL_MS, 2 * config.GROUPWATCH_CONFIG_REFRESH_MS),
    retention,
    alerts: {
      renotifyMs:
        renotify === undefined || renotify === ""
          ? 3_600_000
          : renotify === "0"
            ? 0
            : parseDuration(renotify),
      linkBase: "",
    },
  });
  // Any collector delivers the outbox; claims keep two of them from sending the same row.
  const deliverer = new OutboxDeliverer({
    db,
    secretKey,
    log: log.child({ component: "outbox" }),
    policy: webhookPolicyFromEnv(),
    baseUrl: publicUrl,
  });
  await collector.start();
  // GROUPWATCH_DELIVER_WEBHOOKS=false: this collector decides but leaves delivery to others.
  if (config.GROUPWATCH_DELIVER_WEBHOOKS === "true") deliverer.start();
  log.info({ collectorId }, "collector started");

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "collector stopping");
    const force = setTimeout(() => {
      log.error("shutdown took over 15 s; exiting");
      process.exit(1);
    }, 15_000);
    force.unref();
    Promise.all([collector.stop(), deliverer.stop()])
      .then(() => db.$disconnect())
      .then(() => {
        log.info("collector stopped");
        process.exit(0);
      })
      .catch((e: unknown) => {
        log.error({ error: String(e) }, "error while stopping");
        process.exit(1);
      });
  };
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));
}

main().catch((e: unknown) => {
  // Only start-up errors land here (bad env, unreachable database): Kafka errors never do.
  logger.fatal({ error: e instanceof Error ? e.message : String(e) }, "collector failed to start");
  process.exit(1);
});
