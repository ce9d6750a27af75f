import { z } from "zod";

// A cluster as an operator writes it in GROUPWATCH_CLUSTERS or sends it to the API.
// Broker addresses and names are bounded: they end up in logs, URLs and HTML.

const ZBroker = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9._\-[\]:]+:\d{1,5}$/, "broker must be host:port");

export const ZSaslConfig = z.object({
  mechanism: z.enum(["plain", "scram-sha-256", "scram-sha-512"]),
  username: z.string().min(1).max(500),
  password: z.string().min(1).max(2000),
});
export type SaslConfig = z.infer<typeof ZSaslConfig>;

export const ZTlsConfig = z.object({
  ca: z.string().max(100_000).optional(),
  cert: z.string().max(100_000).optional(),
  key: z.string().max(100_000).optional(),
  rejectUnauthorized: z.boolean().default(true),
});
export type TlsConfig = z.infer<typeof ZTlsConfig>;

export const ZClusterConfig = z.object({
  name: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .regex(/^[A-Za-z0-9._\- ]+$/, "name may hold letters, digits, space, dot, dash, underscore"),
  brokers: z
    .union([z.string(), z.array(z.string())])
    .transform((b) => (Array.isArray(b) ? b : b.split(",")).map((s) => s.trim()).filter(Boolean))
    .pipe(z.array(ZBroker).min(1, "at least one broker").max(100)),
  clientId: z.string().min(1).max(200).default("groupwatch"),
  sasl: ZSaslConfig.optional(),
  /** true for TLS with the system CAs, or an object with PEM material. */
  tls: z.union([z.boolean(), ZTlsConfig]).optional(),
  pollIntervalMs: z.number().int().min(1000).max(3_600_000).default(5000),
  /** Consumer timeouts assumed when explaining why a member left (Kafka's defaults). */
  sessionTimeoutMs: z.number().int().min(1000).max(3_600_000).default(45_000),
  maxPollIntervalMs: z.number().int().min(1000).max(86_400_000).default(300_000),
  commitIntervalMs: z.number().int().min(0).max(3_600_000).default(5000),
  enabled: z.boolean().default(true),
});
export type ClusterConfig = z.infer<typeof ZClusterConfig>;

/** Parses GROUPWATCH_CLUSTERS; the error names the entry and field at fault. */
export function parseClustersEnv(raw: string | undefined): ClusterConfig[] {
  if (raw === undefined || raw.trim() === "") return [];
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (e) {
    throw new Error(`GROUPWATCH_CLUSTERS is not valid JSON: ${(e as Error).message}`, { cause: e });
  }
  const list = Array.isArray(json) ? json : [json];
  const parsed = z.array(ZClusterConfig).safeParse(list);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  [${i.path.join(".")}] ${i.message}`);
    throw new Error(`GROUPWATCH_CLUSTERS is invalid:\n${lines.join("\n")}`);
  }
  const names = new Set<string>();
  for (const c of parsed.data) {
    if (names.has(c.name)) throw new Error(`GROUPWATCH_CLUSTERS names "${c.name}" twice`);
    names.add(c.name);
  }
  return parsed.data;
}
