import { createHmac, timingSafeEqual } from "node:crypto";

// Webhook signatures (the scheme Stripe and dub use). For an endpoint with a secret, every
// request carries
//   X-Groupwatch-Timestamp: <unix seconds when this attempt was sent>
//   X-Groupwatch-Signature: v1=<hex HMAC-SHA256(secret, `${timestamp}.${raw body}`)>
// A receiver verifies it by recomputing the HMAC over the raw body bytes exactly as received
// (before any JSON parsing), comparing in constant time, and rejecting timestamps older than a
// few minutes (replay). Retries are signed anew: same body and Idempotency-Key, fresh timestamp.

export const TIMESTAMP_HEADER = "X-Groupwatch-Timestamp";
export const SIGNATURE_HEADER = "X-Groupwatch-Signature";
export const IDEMPOTENCY_HEADER = "Idempotency-Key";
export const EVENT_HEADER = "X-Groupwatch-Event";

/** `v1=<hex>` for a body sent at `timestamp` (unix seconds). */
export function signBody(secret: string, timestamp: number, body: string): string {
  return `v1=${createHmac("sha256", secret).update(`${timestamp}.${body}`, "utf8").digest("hex")}`;
}

export function signatureHeaders(secret: string, body: string, nowMs: number): Record<string, string> {
  const timestamp = Math.floor(nowMs / 1000);
  return { [TIMESTAMP_HEADER]: String(timestamp), [SIGNATURE_HEADER]: signBody(secret, timestamp, body) };
}

/** What a receiver does (also usable in tests): true when signature and timestamp are good. */
export function verifySignature(opts: {
  secret: string;
  body: string;
  timestamp: string | undefined;
  signature: string | undefined;
  nowMs: number;
  toleranceSeconds?: number;
}): boolean {
  const ts = Number(opts.timestamp);
  if (!opts.timestamp || !/^\d+$/.test(opts.timestamp) || !opts.signature) return false;
  if (Math.abs(opts.nowMs / 1000 - ts) > (opts.toleranceSeconds ?? 300)) return false;
  const expected = Buffer.from(signBody(opts.secret, ts, opts.body));
  const got = Buffer.from(opts.signature.trim());
  return got.length === expected.length && timingSafeEqual(got, expected);
}
