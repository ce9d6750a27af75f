import dns from "node:dns/promises";
import net from "node:net";
import tls from "node:tls";

import { z } from "zod";

import { connectionFromRow } from "../collector/cluster-connection";
import { ZClusterConfig, ZSaslConfig } from "../config/cluster-config";
import type { Cluster, PrismaClient } from "../db/client";
import { env } from "../env.js";
import type { KafkaConnectionConfig } from "../kafka/client";
import { KafkaWire } from "../kafka/wire";
import type { Logger } from "../logger";
import { loadSecretKey, seal } from "../secrets";
import { resolveCluster } from "./clusters";
import { BadRequestError, NotFoundError } from "./errors";
import { ConflictError } from "./handler";

// Clusters as the admin API writes them. The collector re-reads the table every few seconds,
// so a change here needs no restart. SASL passwords and TLS keys are sealed on the way in and
// never leave this module: the admin view says only whether one is set.

let cachedKey: Buffer | undefined;

/** The key that seals stored secrets (the collector opens them with the same one). */
export function secretKey(): Buffer {
  cachedKey ??= loadSecretKey(env().GROUPWATCH_SECRET_KEY, env().GROUPWATCH_DATA_DIR);
  return cachedKey;
}

const base = ZClusterConfig.shape;
// "test-connection" is a static route beside /api/clusters/:cluster: a cluster of that name
// could not be addressed by name.
const ZName = base.name.refine((n) => n !== "test-connection", "this name is reserved");
const ZMechanism = ZSaslConfig.shape.mechanism;
const ZPem = z.string().max(100_000);

export const ZTlsBody = z.strictObject({
  enabled: z.boolean(),
  ca: ZPem.nullable().optional(),
  cert: ZPem.nullable().optional(),
  /** Omitted keeps the stored key (on update); null removes it. */
  key: ZPem.nullable().optional(),
  rejectUnauthorized: z.boolean().optional(),
});

/** Omitted password keeps the stored one (update, test of an existing cluster). */
export const ZSaslBody = z.strictObject({
  mechanism: ZMechanism,
  username: ZSaslConfig.shape.username,
  password: ZSaslConfig.shape.password.optional(),
});

const fields = {
  name: ZName,
  brokers: base.brokers,
  clientId: z.string().trim().min(1).max(200),
  sasl: ZSaslBody.nullable(),
  tls: ZTlsBody,
  pollIntervalMs: z.number().int().min(1000).max(3_600_000),
  sessionTimeoutMs: z.number().int().min(1000).max(3_600_000),
  maxPollIntervalMs: z.number().int().min(1000).max(86_400_000),
  commitIntervalMs: z.number().int().min(0).max(3_600_000),
  enabled: z.boolean(),
};

export const ZClusterCreate = z.strictObject({
  name: fields.name,
  brokers: fields.brokers,
  clientId: fields.clientId.default("groupwatch"),
  sasl: fields.sasl.optional(),
  tls: fields.tls.optional(),
  pollIntervalMs: fields.pollIntervalMs.default(5000),
  sessionTimeoutMs: fields.sessionTimeoutMs.default(45_000),
  maxPollIntervalMs: fields.maxPollIntervalMs.default(300_000),
  commitIntervalMs: fields.commitIntervalMs.default(5000),
  enabled: fields.enabled.default(true),
});
export type ClusterCreate = z.output<typeof ZClusterCreate>;

export const ZClusterUpdate = z
  .strictObject({
    name: fields.name.optional(),
    brokers: fields.brokers.optional(),
    clientId: fields.clientId.optional(),
    sasl: fields.sasl.optional(),
    tls: fields.tls.optional(),
    pollIntervalMs: fields.pollIntervalMs.optional(),
    sessionTimeoutMs: fields.sessionTimeoutMs.optional(),
    maxPollIntervalMs: fields.maxPollIntervalMs.optional(),
    commitIntervalMs: fields.commitIntervalMs.optional(),
    enabled: fields.enabled.optional(),
  })
  .refine((u) => Object.values(u).some((v) => v !== undefined), "nothing to change");
export type ClusterUpdate = z.output<typeof ZClusterUpdate>;

/** A cluster as the admin sees it: configuration without secrets. */
export interface ClusterAdminView {
  id: string;
  name: string;
  brokers: string[];
  clientId: string;
  sasl: { mechanism: string; username: string; hasPassword: boolean } | null;
  tls: {
    enabled: boolean;
    ca: string | null;
    cert: string | null;
    hasKey: boolean;
    rejectUnauthorized: boolean;
  };
  pollIntervalMs: number;
  sessionTimeoutMs: number;
  maxPollIntervalMs: number;
  commitIntervalMs: number;
  enabled: boolean;
  /** env: seeded from GROUPWATCH_CLUSTERS (re-applied at start-up); api: created here. */
  source: string;
  createdAt: string;
  updatedAt: string;
}

export function adminView(c: Cluster): ClusterAdminView {
  return {
    id: c.id,
    name: c.name,
    brokers: c.brokers,
    clientId: c.clientId,
    sasl:
      c.saslMechanism && c.saslUsername
        ? { mechanism: c.saslMechanism, username: c.saslUsername, hasPassword: c.saslPasswordEnc !== null }
        : null,
    tls: {
      enabled: c.tlsEnabled,
      ca: c.tlsCa,
      cert: c.tlsCert,
      hasKey: c.tlsKeyEnc !== null,
      rejectUnauthorized: c.tlsRejectUnauthorized,
    },
    pollIntervalMs: c.pollIntervalMs,
    sessionTimeoutMs: c.sessionTimeoutMs,
    maxPollIntervalMs: c.maxPollIntervalMs,
    commitIntervalMs: c.commitIntervalMs,
    enabled: c.enabled,
    source: c.source,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}

const isUniqueViolation = (e: unknown) =>
  typeof e === "object" && e !== null && (e as { code?: unknown }).code === "P2002";

function saslColumns(sasl: z.infer<typeof ZSaslBody> | null, current: Cluster | null, key: Buffer) {
  if (sasl === null) return { saslMechanism: null, saslUsername: null, saslPasswordEnc: null };
  let passwordEnc: string | null;
  if (sasl.password !== undefined) passwordEnc = seal(sasl.password, key);
  else if (current?.saslPasswordEnc) passwordEnc = current.saslPasswordEnc;
  else {
    throw new BadRequestError("sasl.password: required", [{ path: "sasl.password", message: "required" }]);
  }
  return { saslMechanism: sasl.mechanism, saslUsername: sasl.username, saslPasswordEnc: passwordEnc };
}

function tlsColumns(tls: z.infer<typeof ZTlsBody>, current: Cluster | null, key: Buffer) {
  if (!tls.enabled) {
    return { tlsEnabled: false, tlsCa: null, tlsCert: null, tlsKeyEnc: null, tlsRejectUnauthorized: true };
  }
  const keyEnc =
    tls.key === undefined
      ? (current?.tlsKeyEnc ?? null)
      : tls.key === null || tls.key === ""
        ? null
        : seal(tls.key, key);
  return {
    tlsEnabled: true,
    tlsCa: tls.ca === undefined ? (current?.tlsCa ?? null) : tls.ca || null,
    tlsCert: tls.cert === undefined ? (current?.tlsCert ?? null) : tls.cert || null,
    tlsKeyEnc: keyEnc,
    tlsRejectUnauthorized: tls.rejectUnauthorized ?? current?.tlsRejectUnauthorized ?? true,
  };
}

export async function listClusterConfigs(db: PrismaClient): Promise<{ clusters: ClusterAdminView[] }> {
  const rows = await db.cluster.findMany({ orderBy: { name: "asc" } });
  return { clusters: rows.map(adminView) };
}

export async function createCluster(
  db: PrismaClient,
  input: ClusterCreate,
  key = secretKey(),
): Promise<{ cluster: ClusterAdminView }> {
  const data = {
    name: input.name,
    brokers: input.brokers,
    clientId: input.clientId,
    ...saslColumns(input.sasl ?? null, null, key),
    ...tlsColumns(input.tls ?? { enabled: false }, null, key),
    pollIntervalMs: input.pollIntervalMs,
    sessionTimeoutMs: input.sessionTimeoutMs,
    maxPollIntervalMs: input.maxPollIntervalMs,
    commitIntervalMs: input.commitIntervalMs,
    enabled: input.enabled,
    source: "api",
  };
  try {
    return { cluster: adminView(await db.cluster.create({ data })) };
  } catch (e) {
    if (isUniqueViolation(e)) throw new ConflictError(`a cluster named "${input.name}" already exists`);
    throw e;
  }
}

async function loadRow(db: PrismaClient, ref: string): Promise<Cluster> {
  const { id } = await resolveCluster(db, ref);
  const row = await db.cluster.findUnique({ where: { id } });
  if (!row) throw new NotFoundError(`unknown cluster "${ref.slice(0, 200)}"`);
  return row;
}

export async function updateCluster(
  db: PrismaClient,
  ref: string,
  patch: ClusterUpdate,
  key = secretKey(),
): Promise<{ cluster: ClusterAdminView }> {
  const current = await loadRow(db, ref);
  const data = {
    ...(patch.name !== undefined ? { name: patch.name } : {}),
    ...(patch.brokers !== undefined ? { brokers: patch.brokers } : {}),
    ...(patch.clientId !== undefined ? { clientId: patch.clientId } : {}),
    ...(patch.sasl !== undefined ? saslColumns(patch.sasl, current, key) : {}),
    ...(patch.tls !== undefined ? tlsColumns(patch.tls, current, key) : {}),
    ...(patch.pollIntervalMs !== undefined ? { pollIntervalMs: patch.pollIntervalMs } : {}),
    ...(patch.sessionTimeoutMs !== undefined ? { sessionTimeoutMs: patch.sessionTimeoutMs } : {}),
    ...(patch.maxPollIntervalMs !== undefined ? { maxPollIntervalMs: patch.maxPollIntervalMs } : {}),
    ...(patch.commitIntervalMs !== undefined ? { commitIntervalMs: patch.commitIntervalMs } : {}),
    ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
  };
  try {
    return { cluster: adminView(await db.cluster.update({ where: { id: current.id }, data })) };
  } catch (e) {
    if (isUniqueViolation(e)) throw new ConflictError(`a cluster named "${patch.name ?? ""}" already exists`);
    throw e;
  }
}

/** Deletes a cluster and (cascade) everything recorded about it. */
export async function deleteCluster(db: PrismaClient, ref: string): Promise<{ deleted: string }> {
  const current = await loadRow(db, ref);
  await db.cluster.deleteMany({ where: { id: current.id } });
  return { deleted: current.id };
}

/** The stored row behind a cluster reference (for a connection test of a saved cluster). */
export const clusterRow = loadRow;

// ---- connection test ----

export const TEST_TIMEOUT_MS = 10_000;

/** The cluster form's body (any field may be missing), or `clusterId` (id or name) of a saved
 *  cluster whose stored settings and secrets fill in what the body leaves out. */
export const ZConnectionTest = z
  .strictObject({
    clusterId: z.string().trim().min(1).max(200).optional(),
    name: z.string().max(200).optional(),
    brokers: fields.brokers.optional(),
    clientId: fields.clientId.optional(),
    sasl: fields.sasl.optional(),
    tls: fields.tls.optional(),
    pollIntervalMs: z.number().optional(),
    sessionTimeoutMs: z.number().optional(),
    maxPollIntervalMs: z.number().optional(),
    commitIntervalMs: z.number().optional(),
    enabled: z.boolean().optional(),
  })
  .refine((b) => b.clusterId !== undefined || b.brokers !== undefined, {
    path: ["brokers"],
    message: "give the brokers, or the clusterId of a saved cluster",
  });
export type ConnectionTestInput = z.output<typeof ZConnectionTest>;

export type StepName = "dns" | "tcp" | "tls" | "sasl" | "apiVersions" | "metadata" | "listGroups";

export interface TestStep {
  step: StepName;
  label: string;
  status: "ok" | "failed" | "skipped";
  message: string;
  durationMs: number;
}

export interface ConnectionTestResult {
  ok: boolean;
  durationMs: number;
  steps: TestStep[];
  cluster: {
    clusterId: string | null;
    controllerId: number | null;
    brokers: { nodeId: number; host: string; port: number; rack: string | null }[];
    topicCount: number;
    groupCount: number | null;
  } | null;
}

const LABELS: Record<StepName, string> = {
  dns: "DNS lookup",
  tcp: "TCP connect",
  tls: "TLS handshake",
  sasl: "SASL authentication",
  apiVersions: "ApiVersions",
  metadata: "Metadata",
  listGroups: "ListGroups",
};
const ORDER: StepName[] = ["dns", "tcp", "tls", "apiVersions", "sasl", "metadata", "listGroups"];

/** The connection settings to test: the body over the stored row (when clusterId is given). */
export async function connectionForTest(
  db: PrismaClient,
  input: ConnectionTestInput,
  key = secretKey(),
): Promise<KafkaConnectionConfig> {
  const current = input.clusterId === undefined ? null : await loadRow(db, input.clusterId);
  const row = {
    ...(current ?? { saslMechanism: null, saslUsername: null, saslPasswordEnc: null, tlsEnabled: false }),
    name: current?.name ?? (input.name || "connection-test"),
    brokers: input.brokers ?? current?.brokers ?? [],
    clientId: input.clientId ?? current?.clientId ?? "groupwatch",
    ...(input.sasl !== undefined ? saslColumns(input.sasl, current, key) : {}),
    ...(input.tls !== undefined ? tlsColumns(input.tls, current, key) : {}),
  } as Cluster;
  return connectionFromRow(row, key);
}

class StepTimeout extends Error {}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StepTimeout(what)), Math.max(0, ms));
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function splitBroker(broker: string): { host: string; port: number } {
  const i = broker.lastIndexOf(":");
  const host = broker.slice(0, i).replace(/^\[(.*)\]$/, "$1");
  return { host, port: Number(broker.slice(i + 1)) };
}

function errorCode(e: unknown): string | undefined {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/** The innermost kafkajs error (retries wrap the one that matters). */
function rootError(e: unknown): Error {
  let err = e instanceof Error ? e : new Error(String(e));
  for (let i = 0; i < 5 && err.cause instanceof Error; i++) err = err.cause;
  return err;
}

function socketMessage(e: unknown, at: string, timeoutMs: number): string {
  const code = errorCode(e);
  if (e instanceof StepTimeout || code === "ETIMEDOUT") {
    return `no answer from ${at} within ${timeoutMs / 1000} s (a firewall, or a wrong address?)`;
  }
  if (code === "ECONNREFUSED") return `connection refused at ${at}`;
  if (code === "EHOSTUNREACH" || code === "ENETUNREACH") return `${at} is unreachable (${code})`;
  if (code === "ECONNRESET") return `${at} reset the connection`;
  return `${at}: ${e instanceof Error ? e.message : String(e)}`;
}

interface Reachable {
  host: string;
  address: string;
  port: number;
}

async function dnsStep(
  brokers: string[],
  budget: () => number,
): Promise<{ step: string[]; found: Reachable[] }> {
  const results = await Promise.all(
    brokers.slice(0, 10).map(async (b) => {
      const { host, port } = splitBroker(b);
      if (net.isIP(host))
        return { ok: true as const, line: `${b}: IP address`, r: { host, address: host, port } };
      try {
        const { address } = await within(dns.lookup(host), Math.min(5000, budget()), "dns");
        return { ok: true as const, line: `${host} → ${address}`, r: { host, address, port } };
      } catch (e) {
        const code = errorCode(e);
        const why =
          e instanceof StepTimeout
            ? "the lookup timed out"
            : code === "ENOTFOUND"
              ? "no such host"
              : (code ?? (e as Error).message);
        return { ok: false as const, line: `cannot resolve ${host}: ${why}` };
      }
    }),
  );
  return {
    step: results.map((r) => r.line),
    found: results.flatMap((r) => (r.ok ? [r.r] : [])),
  };
}

function tcpConnect(r: Reachable, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: r.address, port: r.port });
    socket.setTimeout(timeoutMs, () => {
      socket.destroy();
      reject(new StepTimeout("tcp"));
    });
    socket.once("connect", () => {
      socket.end();
      socket.destroy();
      resolve();
    });
    socket.once("error", (e) => {
      socket.destroy();
      reject(e);
    });
  });
}

function tlsHandshake(r: Reachable, conn: KafkaConnectionConfig, timeoutMs: number): Promise<string> {
  const opts = typeof conn.tls === "object" ? conn.tls : { rejectUnauthorized: true };
  return new Promise((resolve, reject) => {
    const socket = tls.connect({
      host: r.address,
      port: r.port,
      ...(net.isIP(r.host) ? {} : { servername: r.host }),
      rejectUnauthorized: opts.rejectUnauthorized,
      ...(opts.ca ? { ca: [opts.ca] } : {}),
      ...(opts.cert ? { cert: opts.cert } : {}),
      ...(opts.key ? { key: opts.key } : {}),
    });
    socket.setTimeout(timeoutMs, () => {
      socket.destroy();
      reject(new StepTimeout("tls"));
    });
    socket.once("secureConnect", () => {
      const cert = socket.getPeerCertificate();
      const subject = typeof cert.subject?.CN === "string" ? cert.subject.CN : "?";
      const line = `${socket.getProtocol() ?? "TLS"}, certificate for ${subject}${
        cert.valid_to ? ` valid until ${cert.valid_to}` : ""
      }${socket.authorized ? "" : ` (not verified: ${String(socket.authorizationError)})`}`;
      socket.end();
      socket.destroy();
      resolve(line);
    });
    socket.once("error", (e: Error) => {
      socket.destroy();
      reject(e);
    });
  });
}

/**
 * Connects to a cluster step by step and says what worked: DNS, TCP, TLS, ApiVersions, SASL,
 * Metadata, ListGroups. Never throws for a cluster that cannot be reached: a failed step is the
 * answer. Secrets never appear in the messages.
 */
export async function testConnection(
  conn: KafkaConnectionConfig,
  log: Logger,
  timeoutMs = TEST_TIMEOUT_MS,
): Promise<ConnectionTestResult> {
  const started = Date.now();
  const deadline = started + timeoutMs;
  const budget = () => Math.max(0, deadline - Date.now());
  const steps = new Map<StepName, TestStep>();
  const secrets = [conn.sasl?.password, typeof conn.tls === "object" ? conn.tls.key : undefined].filter(
    (s): s is string => !!s && s.length >= 1,
  );
  const scrub = (s: string) => secrets.reduce((acc, secret) => acc.split(secret).join("***"), s);
  const record = (step: StepName, status: TestStep["status"], message: string, since: number) =>
    steps.set(step, {
      step,
      label: LABELS[step],
      status,
      message: scrub(message),
      durationMs: Date.now() - since,
    });
  const timedOut = () => `timed out after ${timeoutMs / 1000} s`;
  let cluster: ConnectionTestResult["cluster"] = null;

  const finish = (): ConnectionTestResult => {
    const failed = [...steps.values()].some((s) => s.status === "failed");
    const list = ORDER.map(
      (name) =>
        steps.get(name) ?? {
          step: name,
          label: LABELS[name],
          status: "skipped" as const,
          message: failed ? "not run: an earlier step failed" : "not run",
          durationMs: 0,
        },
    );
    return { ok: !failed, durationMs: Date.now() - started, steps: list, cluster };
  };

  // 1-2. DNS and TCP for the bootstrap brokers: one reachable broker is enough.
  let t = Date.now();
  const { step: dnsLines, found } = await dnsStep(conn.brokers, budget);
  record("dns", found.length > 0 ? "ok" : "failed", dnsLines.join("; "), t);
  if (found.length === 0) return finish();

  t = Date.now();
  const tcpTimeout = Math.min(5000, budget());
  const tcp = await Promise.all(
    found.map((r) =>
      tcpConnect(r, tcpTimeout).then(
        () => ({ r, line: `connected to ${r.host}:${r.port}` }),
        (e: unknown) => ({ r: null, line: socketMessage(e, `${r.host}:${r.port}`, tcpTimeout) }),
      ),
    ),
  );
  const reachable = tcp.flatMap((x) => (x.r ? [x.r] : []));
  record("tcp", reachable.length > 0 ? "ok" : "failed", tcp.map((x) => x.line).join("; "), t);
  const first = reachable[0];
  if (!first) return finish();

  // 3. TLS, on the first reachable broker.
  t = Date.now();
  if (!conn.tls) record("tls", "skipped", "TLS is not enabled for this cluster", t);
  else {
    try {
      record("tls", "ok", await tlsHandshake(first, conn, Math.min(5000, budget())), t);
    } catch (e) {
      const why =
        e instanceof StepTimeout
          ? `no TLS answer within ${Math.min(5000, timeoutMs) / 1000} s`
          : (e as Error).message;
      record("tls", "failed", `TLS handshake with ${first.host}:${first.port} failed: ${why}`, t);
      return finish();
    }
  }

  // 4-5. kafkajs's connection handshake: ApiVersions, then SASL; then Metadata (seed broker).
  const wire = KafkaWire.create(
    { ...conn, connectionTimeoutMs: Math.min(3000, budget()), requestTimeoutMs: Math.min(5000, budget()) },
    log,
  );
  try {
    t = Date.now();
    try {
      await within(wire.connect(), budget(), "connect");
      record("apiVersions", "ok", "the broker answered ApiVersions", t);
      if (conn.sasl)
        record("sasl", "ok", `authenticated as ${conn.sasl.username} (${conn.sasl.mechanism})`, t);
      else record("sasl", "skipped", "SASL is not enabled for this cluster", t);
    } catch (e) {
      const root = rootError(e);
      if (e instanceof StepTimeout) {
        record("apiVersions", "failed", `${timedOut()} (is this a TLS or SASL listener?)`, t);
      } else if (
        conn.sasl &&
        (root.name === "KafkaJSSASLAuthenticationError" || /SASL/i.test(root.message))
      ) {
        record("apiVersions", "ok", "the broker answered ApiVersions", t);
        record(
          "sasl",
          "failed",
          `SASL authentication failed for user ${conn.sasl.username} (${conn.sasl.mechanism}): ${root.message}`,
          t,
        );
      } else {
        const hint =
          !conn.tls && /closed|ECONNRESET|timeout/i.test(root.message)
            ? " (does this listener need TLS?)"
            : "";
        record("apiVersions", "failed", `${root.message}${hint}`, t);
      }
      return finish();
    }

    t = Date.now();
    let meta: Awaited<ReturnType<KafkaWire["metadata"]>>;
    try {
      meta = await within(wire.metadata(), budget(), "metadata");
      const brokers = meta.brokers.map((b) => `${b.nodeId} (${b.host}:${b.port})`).join(", ");
      record(
        "metadata",
        "ok",
        `${meta.brokers.length} broker(s): ${brokers}; controller ${meta.controllerId ?? "unknown"}; ${meta.topics.length} topic(s)`,
        t,
      );
      cluster = {
        clusterId: meta.clusterId,
        controllerId: meta.controllerId,
        brokers: meta.brokers,
        topicCount: meta.topics.length,
        groupCount: null,
      };
    } catch (e) {
      const root = rootError(e);
      const hint =
        !conn.sasl && /closed|authoriz|authenticat/i.test(root.message)
          ? " (does this listener need SASL?)"
          : "";
      record("metadata", "failed", e instanceof StepTimeout ? timedOut() : `${root.message}${hint}`, t);
      return finish();
    }

    // 6. ListGroups on every broker: each lists the groups it coordinates, at its advertised address.
    t = Date.now();
    const lists = await Promise.all(
      meta.brokers.map((b) =>
        within(wire.listGroups(b.nodeId), budget(), "listGroups").then(
          (groups) => ({ ok: true as const, n: groups.length }),
          (e: unknown) => ({
            ok: false as const,
            line:
              e instanceof StepTimeout
                ? `broker ${b.nodeId} (${b.host}:${b.port}): ${timedOut()}`
                : `broker ${b.nodeId} (${b.host}:${b.port}): ${rootError(e).message} (check its advertised.listeners)`,
          }),
        ),
      ),
    );
    const failures = lists.flatMap((l) => (l.ok ? [] : [l.line]));
    const groups = lists.reduce((n, l) => n + (l.ok ? l.n : 0), 0);
    if (failures.length === 0) {
      record("listGroups", "ok", `${groups} group(s) on ${meta.brokers.length} broker(s)`, t);
      cluster.groupCount = groups;
    } else record("listGroups", "failed", failures.join("; "), t);
    return finish();
  } finally {
    // A hung connect must not hold the answer: disconnect in the background.
    void wire.disconnect().catch(() => undefined);
  }
}
