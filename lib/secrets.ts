import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

// Secrets at rest (SASL passwords, TLS private keys) are sealed with AES-256-GCM.
// Format: "v1:" + base64(iv[12] | tag[16] | ciphertext). The key is derived with scrypt from
// GROUPWATCH_SECRET_KEY, or from a random key kept in the data directory when none is given.

const PREFIX = "v1:";
const SALT = "groupwatch-secrets-v1";

export function deriveKey(passphrase: string): Buffer {
  return scryptSync(passphrase, SALT, 32);
}

export function seal(plaintext: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64");
}

export function unseal(sealed: string, key: Buffer): string {
  if (!sealed.startsWith(PREFIX)) throw new Error("sealed secret has an unknown format");
  const raw = Buffer.from(sealed.slice(PREFIX.length), "base64");
  if (raw.length < 28) throw new Error("sealed secret is truncated");
  const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  try {
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
  } catch {
    throw new Error("sealed secret cannot be opened: wrong GROUPWATCH_SECRET_KEY?");
  }
}

/** The process's secret key: from the env value, else a generated one under dataDir. */
export function loadSecretKey(envValue: string | undefined, dataDir: string): Buffer {
  if (envValue) return deriveKey(envValue);
  const file = path.resolve(dataDir, "secret.key");
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, randomBytes(32).toString("base64"), { flag: "wx", mode: 0o600 });
    chmodSync(file, 0o600);
  }
  return deriveKey(readFileSync(file, "utf8").trim());
}
