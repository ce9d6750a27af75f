// The one environment module, shared by next.config.js, the web app, the collector and the
// scripts (the create-t3-app pattern). Plain ESM JavaScript so next.config.js can import it
// without a build step; type-checked through JSDoc. Domain code never reads it: it gets config
// as arguments.
import { z } from "zod";

const ZLogLevel = z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]);

export const ZEnv = z.object({
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  /** PostgreSQL URL. Unset: the launcher starts the embedded database and sets it. */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional(),
  /** JSON array of clusters to seed into the database (see lib/config/cluster-config.ts). */
  GROUPWATCH_CLUSTERS: z.string().optional(),
  /** Key for sealing stored secrets (SASL passwords, TLS keys). Any string of 16+ chars. */
  GROUPWATCH_SECRET_KEY: z.string().min(16, "must be at least 16 characters").optional(),
  /** Project-local data directory: embedded database files, generated secret key. */
  GROUPWATCH_DATA_DIR: z.string().default(".data"),
  /** Port of the embedded database (only used when DATABASE_URL is unset). */
  GROUPWATCH_EMBEDDED_DB_PORT: z.coerce.number().int().min(1).max(65535).default(55432),
  /** Identity of this collector process in status rows and leases. */
  GROUPWATCH_COLLECTOR_ID: z.string().max(200).optional(),
  /** How often the collector re-reads the cluster table (config changes without restart). */
  GROUPWATCH_CONFIG_REFRESH_MS: z.coerce.number().int().min(200).max(600_000).default(5000),
  /** A cluster's lease lasts this long without renewal; then another collector takes it over. */
  GROUPWATCH_LEASE_TTL_MS: z.coerce.number().int().min(1000).max(600_000).default(15_000),
  LOG_LEVEL: ZLogLevel.default("info"),
  /** Web server port and bind address used by `npm start` / `npm run demo`. */
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().default("127.0.0.1"),
  /** auto: start a local Kafka when no cluster is configured; never: do not. */
  GROUPWATCH_LOCAL_KAFKA: z.enum(["auto", "never"]).default("auto"),
  /** Port of the local Kafka started by the launcher and the tests. */
  KAFKA_PORT: z.coerce.number().int().min(1).max(65535).default(9092),
});

/** @typedef {z.infer<typeof ZEnv>} Env */

/**
 * Parses an environment; throws one readable error listing every bad variable.
 * @param {Record<string, string | undefined>} source
 * @returns {Env}
 */
export function parseEnv(source) {
  // Empty strings mean "unset": shells and .env files often export VAR= to clear a value.
  /** @type {Record<string, string>} */
  const cleaned = {};
  for (const [key, value] of Object.entries(source)) {
    if (value !== undefined && value !== "") cleaned[key] = value;
  }
  const parsed = ZEnv.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join("\n")}`);
  }
  return parsed.data;
}

/** @type {Env | undefined} */
let cached;

/** The validated process environment, parsed once per process. @returns {Env} */
export function env() {
  cached ??= parseEnv(process.env);
  return cached;
}
