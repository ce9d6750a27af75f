import type { PrismaClient } from "../db/client";
import {
  claimNotifications,
  recordAttempt,
  type AttemptOutcome,
  type AttemptRecord,
  type ClaimedNotification,
  type OutboxStatus,
} from "../db/queries/outbox";
import type { Logger } from "../logger";
import { unseal } from "../secrets";
import { renderNotification, WEBHOOK_FORMATS, type RenderedWebhook, type WebhookFormat } from "./render";
import {
  classifyStatus,
  DEFAULT_RETRY_POLICY,
  parseRetryAfter,
  retryDelayMs,
  type RetryPolicy,
} from "./retry";
import { EVENT_HEADER, IDEMPOTENCY_HEADER, signatureHeaders } from "./sign";
import { checkWebhookUrl, type WebhookUrlPolicy } from "./url-policy";

// Delivers the outbox at least once. Any number of deliverers (one per collector) may run
// against one database: claims are leases taken with SKIP LOCKED, so each due notification is
// sent by one of them, and re-sent after a crash only once its lease has run out.

export interface OutboxDelivererOptions {
  db: PrismaClient;
  /** Opens the endpoints' sealed secrets and routing keys. */
  secretKey: Buffer;
  log: Logger;
  /** Checked again before every request: an endpoint saved before the policy narrowed fails. */
  policy: WebhookUrlPolicy;
  /** Per request, including reading the response head (default 10 s). */
  requestTimeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /** Notifications claimed and sent concurrently per round (default 20). */
  batchSize?: number;
  /** Wait between rounds when the last one found less than a full batch (default 1 s). */
  pollIntervalMs?: number;
  /** How long a claim lasts before another deliverer may take the row (default timeout + 30 s). */
  leaseMs?: number;
  /** Makes the notifications' base-relative links absolute in Slack, PagerDuty and Alertmanager. */
  baseUrl?: string | null;
  /** Jitter source, [0, 1). */
  random?: () => number;
}

export interface DrainResult {
  claimed: number;
  delivered: number;
  retrying: number;
  failed: number;
  /** Outcomes that arrived after another deliverer re-claimed the row (lease ran out). */
  stale: number;
}

const USER_AGENT = "groupwatch-webhook/1";
const SNIPPET_BYTES = 500;

export class OutboxDeliverer {
  private readonly timeoutMs: number;
  private readonly retry: RetryPolicy;
  private readonly batchSize: number;
  private readonly pollIntervalMs: number;
  private readonly leaseMs: number;
  private readonly random: () => number;
  private timer: NodeJS.Timeout | null = null;
  private draining: Promise<void> | null = null;
  private running = false;

  constructor(private readonly opts: OutboxDelivererOptions) {
    this.timeoutMs = opts.requestTimeoutMs ?? 10_000;
    this.retry = { ...DEFAULT_RETRY_POLICY, ...opts.retry };
    this.batchSize = opts.batchSize ?? 20;
    this.pollIntervalMs = opts.pollIntervalMs ?? 1000;
    // A lease shorter than a request would let a second deliverer send while the first waits.
    this.leaseMs = Math.max(opts.leaseMs ?? this.timeoutMs + 30_000, this.timeoutMs + 1000);
    this.random = opts.random ?? Math.random;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  /** Stops polling and waits for the round in flight (bounded by the request timeout). */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.draining;
  }

  /** Runs the next round now instead of after the poll interval (e.g. right after an enqueue). */
  wake(): void {
    if (this.running && this.timer && !this.draining) {
      clearTimeout(this.timer);
      this.schedule(0);
    }
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => {
      this.timer = null;
      this.draining = this.drainOnce()
        .then((r) => (r.claimed >= this.batchSize ? 0 : this.pollIntervalMs))
        .catch((e: unknown) => {
          this.opts.log.error({ error: describeError(e) }, "outbox round failed");
          return this.pollIntervalMs;
        })
        .then((next) => {
          this.draining = null;
          if (this.running) this.schedule(next);
        });
    }, delayMs);
  }

  /** Claims one batch of due notifications and sends them. */
  async drainOnce(): Promise<DrainResult> {
    const claimed = await claimNotifications(this.opts.db, { limit: this.batchSize, leaseMs: this.leaseMs });
    const result: DrainResult = { claimed: claimed.length, delivered: 0, retrying: 0, failed: 0, stale: 0 };
    const outcomes = await Promise.allSettled(claimed.map((c) => this.deliver(c)));
    for (const [i, o] of outcomes.entries()) {
      if (o.status === "rejected") {
        // Most likely the database: the claim runs out and the row is tried again.
        this.opts.log.error(
          { notificationId: claimed[i]!.id.toString(), error: describeError(o.reason) },
          "cannot record a webhook attempt",
        );
        continue;
      }
      if (o.value === "delivered") result.delivered++;
      else if (o.value === "pending") result.retrying++;
      else if (o.value === "failed") result.failed++;
      else result.stale++;
    }
    return result;
  }

  private async deliver(c: ClaimedNotification): Promise<OutboxStatus> {
    const at = new Date();
    const started = performance.now();
    const refuse = (error: string) =>
      this.record(c, { at, durationMs: 0, ok: false, statusCode: null, error }, { kind: "failed", error });

    if (!c.endpoint.enabled && c.event !== "test") return refuse("endpoint is disabled");
    const url = checkWebhookUrl(c.endpoint.url, this.opts.policy);
    if (!url.ok) return refuse(url.error);
    let rendered: RenderedWebhook;
    let secret: string | null;
    try {
      if (!(WEBHOOK_FORMATS as readonly string[]).includes(c.endpoint.format)) {
        return await refuse(`unknown webhook format "${c.endpoint.format}"`);
      }
      const routingKey = c.endpoint.routingKeyEnc
        ? unseal(c.endpoint.routingKeyEnc, this.opts.secretKey)
        : null;
      secret = c.endpoint.secretEnc ? unseal(c.endpoint.secretEnc, this.opts.secretKey) : null;
      rendered = renderNotification(c.payload, {
        format: c.endpoint.format as WebhookFormat,
        routingKey,
        baseUrl: this.opts.baseUrl ?? null,
        endpointName: c.endpoint.name,
      });
    } catch (e) {
      return refuse(describeError(e));
    }

    const headers: Record<string, string> = {
      "Content-Type": rendered.contentType,
      "User-Agent": USER_AGENT,
      [IDEMPOTENCY_HEADER]: c.idempotencyKey,
      [EVENT_HEADER]: c.event,
      ...(secret ? signatureHeaders(secret, rendered.body, Date.now()) : {}),
    };
    let attempt: AttemptRecord;
    let outcome: AttemptOutcome;
    try {
      const res = await fetch(url.url, {
        method: "POST",
        headers,
        body: rendered.body,
        // A redirect could lead past the URL policy.
        redirect: "manual",
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      const cls = classifyStatus(res.status);
      const snippet = cls === "delivered" ? "" : await readSnippet(res);
      if (cls === "delivered") await res.body?.cancel().catch(() => undefined);
      const durationMs = performance.now() - started;
      const redirect = res.status >= 300 && res.status < 400 ? " (redirects are not followed)" : "";
      const error = `HTTP ${res.status}${redirect}${snippet ? `: ${snippet}` : ""}`;
      attempt = { at, durationMs, ok: cls === "delivered", statusCode: res.status, error: null };
      if (cls === "delivered") outcome = { kind: "delivered" };
      else {
        attempt.error = error;
        outcome =
          cls === "failed"
            ? { kind: "failed", error }
            : this.retryOutcome(c, error, parseRetryAfter(res.headers.get("retry-after"), Date.now()));
      }
    } catch (e) {
      const error = describeFetchError(e, this.timeoutMs);
      attempt = { at, durationMs: performance.now() - started, ok: false, statusCode: null, error };
      outcome = this.retryOutcome(c, error, null);
    }
    return this.record(c, attempt, outcome);
  }

  private retryOutcome(c: ClaimedNotification, error: string, retryAfterMs: number | null): AttemptOutcome {
    return {
      kind: "retry",
      error,
      delayMs: retryDelayMs(c.attempts, retryAfterMs, this.retry, this.random()),
      maxAgeMs: this.retry.maxAgeMs,
    };
  }

  private async record(
    c: ClaimedNotification,
    attempt: AttemptRecord,
    outcome: AttemptOutcome,
  ): Promise<OutboxStatus> {
    const status = await recordAttempt(this.opts.db, c, attempt, outcome);
    const fields = {
      notificationId: c.id.toString(),
      endpoint: c.endpoint.name,
      event: c.event,
      attempt: c.attempts,
      status,
    };
    if (status === "delivered") this.opts.log.info(fields, "webhook delivered");
    else if (status === "failed") this.opts.log.warn({ ...fields, error: attempt.error }, "webhook failed");
    else this.opts.log.info({ ...fields, error: attempt.error }, "webhook attempt failed; will retry");
    return status;
  }
}

/** The start of a response body, for the delivery log (bounded: a receiver may send a lot). */
async function readSnippet(res: Response): Promise<string> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < SNIPPET_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } catch {
    // A body cut short or timed out: the status code is what counts.
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  const bytes = Buffer.concat(chunks).subarray(0, SNIPPET_BYTES);
  return new TextDecoder().decode(bytes).replace(/\s+/g, " ").trim().slice(0, 300);
}

function describeError(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** fetch's errors say "fetch failed"; the useful part (ECONNREFUSED, timeout) is the cause. */
function describeFetchError(e: unknown, timeoutMs: number): string {
  if (e instanceof Error && (e.name === "TimeoutError" || e.name === "AbortError")) {
    return `request timed out after ${timeoutMs} ms`;
  }
  if (e instanceof Error && e.cause instanceof Error) {
    const code = (e.cause as Error & { code?: string }).code;
    return `${e.message}: ${code && !e.cause.message.includes(code) ? `${code} ` : ""}${e.cause.message}`;
  }
  return describeError(e);
}
