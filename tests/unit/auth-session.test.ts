import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";

import { afterAll, describe, expect, test } from "vitest";

import { loadAuthSecret } from "../../lib/auth/secret";
import { decodeSession, encodeSession, parseCookieHeader, sessionTokenFrom } from "../../lib/auth/session";

const secret = "a-test-secret-of-some-length";
const dir = mkdtempSync(path.join(os.tmpdir(), "groupwatch-auth-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("session cookies", () => {
  test("a token round-trips its claims", async () => {
    const token = await encodeSession({ username: "ann", role: "operator" }, secret);
    const claims = await decodeSession(token, secret);
    expect(claims).toMatchObject({ username: "ann", role: "operator" });
    expect(claims!.roleCheckedAt).toBeGreaterThan(0);
  });

  test.each([
    {
      label: "another secret",
      token: () => encodeSession({ username: "ann", role: "admin" }, "another-secret-entirely"),
    },
    { label: "garbage", token: () => Promise.resolve("not.a.jwe.token") },
    { label: "no token", token: () => Promise.resolve(undefined) },
  ])("$label decodes to null", async ({ token }) => {
    expect(await decodeSession(await token(), secret)).toBeNull();
  });

  test("finds the token under either cookie name, and joins chunked cookies", () => {
    expect(sessionTokenFrom(parseCookieHeader("a=1; next-auth.session-token=abc%3D; b=2"))).toBe("abc=");
    expect(sessionTokenFrom(parseCookieHeader("__Secure-next-auth.session-token=xyz"))).toBe("xyz");
    expect(
      sessionTokenFrom(parseCookieHeader("next-auth.session-token.1=def; next-auth.session-token.0=abc")),
    ).toBe("abcdef");
    expect(sessionTokenFrom(parseCookieHeader(null))).toBeUndefined();
    expect(sessionTokenFrom(parseCookieHeader("garbage; =x; y"))).toBeUndefined();
  });
});

describe("loadAuthSecret", () => {
  test("the env value wins", () => {
    expect(loadAuthSecret("from-the-environment", dir)).toBe("from-the-environment");
  });

  test("otherwise one is generated into the data dir (0600) and reused", () => {
    const first = loadAuthSecret(undefined, dir);
    expect(first.length).toBeGreaterThanOrEqual(40);
    expect(loadAuthSecret(undefined, dir)).toBe(first);
    const file = path.join(dir, "auth-secret");
    expect(readFileSync(file, "utf8")).toBe(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});
