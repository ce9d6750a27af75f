// The one environment module, shared by next.config.js, the web app, the collector and the
// scripts (the create-t3-app pattern). Plain ESM JavaScript so next.config.js can import it
// without a build step; type-checked through JSDoc. Domain code never reads it: it gets config
// as arguments.
import { z } from "zod";

const ZDuration = z
  .string()
  .regex(/^\s*\d+(\.\d+)?\s*(ms|s|m|h|d|w)?\s*$/i, "must be a duration such as 90s, 30m, 6h or 7d");

const ZLogLevel = z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]);
/** Dashboard roles, weakest first (lib/auth/roles.ts orders them). */
export const ZRole = z.enum(["viewer", "operator", "admin"]);
/** Usernames: what an IdP's preferred_username or an email may hold, nothing else. */
export const ZUsername = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[\w.@+-]+$/, "letters, digits and . _ @ + - only");

export const ZEnv = z
  .object({
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

    // Retention (lib/config/retention.ts): durations such as 90s, 30m, 6h, 7d.
    /** Lag at poll resolution (default 3h); older samples become 1-minute buckets. */
    GROUPWATCH_RETENTION_LAG_RAW: ZDuration.optional(),
    /** 1-minute lag buckets (default 3d); older ones become 1-hour buckets. */
    GROUPWATCH_RETENTION_LAG_MINUTE: ZDuration.optional(),
    /** 1-hour lag buckets (default 90d). */
    GROUPWATCH_RETENTION_LAG_HOUR: ZDuration.optional(),
    /** Events, rebalance episodes, ended sessions, state intervals (default 90d). */
    GROUPWATCH_RETENTION_TIMELINE: ZDuration.optional(),
    /** Poll cycle records (default 7d). */
    GROUPWATCH_RETENTION_POLL_CYCLES: ZDuration.optional(),
    /** Resolved incidents and sent/failed notifications (default 90d). */
    GROUPWATCH_RETENTION_ALERTS: ZDuration.optional(),

    // Alerts (lib/domain/alerts, lib/alerts).
    /** Re-send a notification for a still-open incident this often (default 1h; 0 = never). */
    GROUPWATCH_ALERT_RENOTIFY: z.union([z.literal("0"), ZDuration]).optional(),
    /** The dashboard's public URL, used in notification links (default http://HOST:PORT). */
    GROUPWATCH_PUBLIC_URL: z.url().optional(),
    /** false: this collector decides incidents but leaves webhook delivery to other collectors. */
    GROUPWATCH_DELIVER_WEBHOOKS: z.enum(["true", "false"]).default("true"),
    /** Comma-separated hosts webhooks may go to (*.example.com allowed); unset: any host. */
    GROUPWATCH_WEBHOOK_ALLOWED_HOSTS: z.string().optional(),

    // Sign-in (lib/auth). The local admin is created from these on first start only.
    /** Username of the local admin created on first start. */
    GROUPWATCH_ADMIN_USER: ZUsername.default("admin"),
    /** Its password; unset: `npm start`/`npm run demo` generate one into <data dir>/admin-password. */
    GROUPWATCH_ADMIN_PASSWORD: z.string().min(8, "must be at least 8 characters").max(200).optional(),
    /** Signs and encrypts the session cookies; unset: generated into <data dir>/auth-secret. */
    NEXTAUTH_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
    /** Same as NEXTAUTH_SECRET (Auth.js v5 name); NEXTAUTH_SECRET wins when both are set. */
    AUTH_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
    /** The dashboard's public URL (needed for OIDC behind a proxy); unset: from the Host header. */
    NEXTAUTH_URL: z.url().optional(),
    /** Generic OpenID Connect provider, offered on the sign-in page when all three are set. */
    GROUPWATCH_OIDC_ISSUER: z.url().optional(),
    GROUPWATCH_OIDC_CLIENT_ID: z.string().optional(),
    GROUPWATCH_OIDC_CLIENT_SECRET: z.string().optional(),
    /** Label of the OIDC button. */
    GROUPWATCH_OIDC_NAME: z.string().max(100).default("Single sign-on"),
    /** ID-token claim (string or array) naming a role: viewer, operator or admin. */
    GROUPWATCH_OIDC_ROLE_CLAIM: z.string().optional(),
    /** Role of OIDC users created on first sign-in when the claim names none. */
    GROUPWATCH_OIDC_DEFAULT_ROLE: ZRole.default("viewer"),
  })
  .superRefine((e, ctx) => {
    const oidc = [e.GROUPWATCH_OIDC_ISSUER, e.GROUPWATCH_OIDC_CLIENT_ID, e.GROUPWATCH_OIDC_CLIENT_SECRET];
    if (oidc.some(Boolean) && !oidc.every(Boolean)) {
      ctx.addIssue({
        code: "custom",
        path: ["GROUPWATCH_OIDC_ISSUER"],
        message:
          "set GROUPWATCH_OIDC_ISSUER, GROUPWATCH_OIDC_CLIENT_ID and GROUPWATCH_OIDC_CLIENT_SECRET together",
      });
    }
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
