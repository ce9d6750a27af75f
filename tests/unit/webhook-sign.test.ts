import { createHmac } from "node:crypto";

import { describe, expect, test } from "vitest";

import {
  SIGNATURE_HEADER,
  signatureHeaders,
  signBody,
  TIMESTAMP_HEADER,
  verifySignature,
} from "../../lib/alerts/sign";

const SECRET = "whsec-unit-0123456789abcdef";
const BODY = JSON.stringify({ version: 1, event: "trigger", group: { id: "orders" } });
const NOW = Date.UTC(2026, 11, 1, 10, 0, 0);

/** A receiver's check written with node:crypto alone, independent of lib/alerts/sign.ts. */
function receiverAccepts(headers: Record<string, string>, body: string, secret = SECRET): boolean {
  const ts = headers[TIMESTAMP_HEADER]!;
  const expected = createHmac("sha256", secret).update(`${ts}.${body}`).digest("hex");
  return headers[SIGNATURE_HEADER] === `v1=${expected}`;
}

describe("webhook signature", () => {
  test("headers carry unix seconds and a v1 HMAC-SHA256 a receiver can recompute", () => {
    const headers = signatureHeaders(SECRET, BODY, NOW + 999);
    expect(headers[TIMESTAMP_HEADER]).toBe(String(NOW / 1000));
    expect(headers[SIGNATURE_HEADER]).toMatch(/^v1=[0-9a-f]{64}$/);
    expect(receiverAccepts(headers, BODY)).toBe(true);
  });

  test.each([
    { label: "tampered body", body: BODY.replace("orders", "0rders"), secret: SECRET },
    { label: "one extra byte", body: `${BODY} `, secret: SECRET },
    { label: "wrong secret", body: BODY, secret: "another-secret-0123456789" },
  ])("fails on a $label", ({ body, secret }) => {
    const headers = signatureHeaders(SECRET, BODY, NOW);
    expect(receiverAccepts(headers, body, secret)).toBe(false);
  });

  test("the timestamp is part of what is signed", () => {
    expect(signBody(SECRET, 1, BODY)).not.toBe(signBody(SECRET, 2, BODY));
  });

  test.each([
    { label: "good", mutate: (h: Record<string, string>) => h, body: BODY, nowMs: NOW, ok: true },
    {
      label: "tampered body",
      mutate: (h: Record<string, string>) => h,
      body: `${BODY}x`,
      nowMs: NOW,
      ok: false,
    },
    {
      label: "replayed after 10 minutes",
      mutate: (h: Record<string, string>) => h,
      body: BODY,
      nowMs: NOW + 600_000,
      ok: false,
    },
    {
      label: "timestamp changed",
      mutate: (h: Record<string, string>) => ({ ...h, [TIMESTAMP_HEADER]: String(NOW / 1000 + 1) }),
      body: BODY,
      nowMs: NOW,
      ok: false,
    },
    {
      label: "signature missing",
      mutate: (h: Record<string, string>): Record<string, string> => ({
        [TIMESTAMP_HEADER]: h[TIMESTAMP_HEADER]!,
      }),
      body: BODY,
      nowMs: NOW,
      ok: false,
    },
    {
      label: "timestamp not a number",
      mutate: (h: Record<string, string>) => ({ ...h, [TIMESTAMP_HEADER]: "1e9" }),
      body: BODY,
      nowMs: NOW,
      ok: false,
    },
  ])("verifySignature: $label", ({ mutate, body, nowMs, ok }) => {
    const h: Record<string, string> = mutate(signatureHeaders(SECRET, BODY, NOW));
    expect(
      verifySignature({
        secret: SECRET,
        body,
        timestamp: h[TIMESTAMP_HEADER],
        signature: h[SIGNATURE_HEADER],
        nowMs,
      }),
    ).toBe(ok);
  });
});
