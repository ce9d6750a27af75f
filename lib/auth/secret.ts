import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

import { env } from "../env.js";

// The key that signs and encrypts session cookies. NEXTAUTH_SECRET (or AUTH_SECRET) when set;
// otherwise a random one generated once into <data dir>/auth-secret (mode 0600), like the
// secret key of lib/secrets.ts, so sessions survive restarts without any configuration.

export function loadAuthSecret(envValue: string | undefined, dataDir: string): string {
  if (envValue) return envValue;
  const file = path.resolve(dataDir, "auth-secret");
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    try {
      writeFileSync(file, randomBytes(32).toString("base64"), { flag: "wx", mode: 0o600 });
      chmodSync(file, 0o600);
    } catch (e) {
      // Another process (the launcher, a second web worker) created it first: read theirs.
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
  }
  return readFileSync(file, "utf8").trim();
}

let cached: string | undefined;

/** This process's session secret (see above); read once. */
export function authSecret(): string {
  const e = env();
  cached ??= loadAuthSecret(e.NEXTAUTH_SECRET ?? e.AUTH_SECRET, e.GROUPWATCH_DATA_DIR);
  return cached;
}
