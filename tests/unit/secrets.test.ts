import { mkdtempSync, readFileSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";

import { describe, expect, test } from "vitest";

import { deriveKey, loadSecretKey, seal, unseal } from "../../lib/secrets";

const key = deriveKey("unit-test-passphrase");

describe("secrets", () => {
  test("round-trips and never stores the plaintext", () => {
    const sealed = seal("p@ss w0rd ✓", key);
    expect(sealed.startsWith("v1:")).toBe(true);
    expect(sealed).not.toContain("p@ss");
    expect(unseal(sealed, key)).toBe("p@ss w0rd ✓");
  });

  test("two seals of the same secret differ (random IV)", () => {
    expect(seal("same", key)).not.toBe(seal("same", key));
  });

  test.each([
    {
      label: "wrong key",
      sealed: () => seal("x", key),
      key: deriveKey("another-passphrase"),
      error: /wrong GROUPWATCH_SECRET_KEY/,
    },
    {
      label: "tampered ciphertext",
      sealed: () => tamper(seal("secret", key)),
      key,
      error: /cannot be opened/,
    },
    { label: "unknown format", sealed: () => "plain", key, error: /unknown format/ },
    { label: "truncated", sealed: () => "v1:AAAA", key, error: /truncated/ },
  ])("rejects $label", ({ sealed, key: k, error }) => {
    expect(() => unseal(sealed(), k)).toThrow(error);
  });

  test("generates a private key file once when no key is configured", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "gw-secret-"));
    const a = loadSecretKey(undefined, dir);
    const b = loadSecretKey(undefined, dir);
    expect(a.equals(b)).toBe(true);
    const file = path.join(dir, "secret.key");
    expect(readFileSync(file, "utf8").length).toBeGreaterThan(40);
    expect(statSync(file).mode & 0o077).toBe(0);
    expect(loadSecretKey("configured-key-of-16+", dir).equals(a)).toBe(false);
  });
});

function tamper(sealed: string): string {
  const raw = Buffer.from(sealed.slice(3), "base64");
  raw.writeUInt8(raw.readUInt8(raw.length - 1) ^ 0xff, raw.length - 1);
  return `v1:${raw.toString("base64")}`;
}
