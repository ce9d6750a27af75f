import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";

import { afterAll, describe, expect, inject, it } from "vitest";

import { portOpen, waitFor } from "../../scripts/lib/process";
import { startTs, type Managed } from "../fixtures/processes";

// `npm run demo` end to end on a fresh data directory: embedded PGlite, migrations, the local
// Kafka (reused from the test rig), collector, demo workload and web app. Without a session the
// page redirects to /login and the API answers 401; signed in as the generated admin, the page
// lists the local cluster with the brokers the collector wrote.

const bootstrap = inject("kafkaBootstrap");
const kafkaPort = bootstrap.split(":")[1]!;
const dataDir = mkdtempSync(path.join(os.tmpdir(), "groupwatch-demo-"));
const webPort = 31000 + Math.floor(Math.random() * 2000);
const dbPort = 56000 + Math.floor(Math.random() * 2000);
let launcher: Managed | undefined;

/** Signs in through NextAuth's credentials endpoint, as the login form does; the Cookie header. */
async function signIn(url: string, username: string, password: string): Promise<string> {
  const jar = new Map<string, string>();
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const eq = pair!.indexOf("=");
      jar.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
  };
  const header = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const csrf = await fetch(`${url}/api/auth/csrf`);
  keep(csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await fetch(`${url}/api/auth/callback/credentials`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: header() },
    body: new URLSearchParams({ csrfToken, username, password, json: "true" }),
    redirect: "manual",
  });
  keep(res);
  const why = `sign-in answered ${res.status} ${await res.clone().text()}\n${launcher?.output().slice(-4000) ?? ""}`;
  expect([...jar.keys()], why).toContain("next-auth.session-token");
  return header();
}

afterAll(async () => {
  await launcher?.stop(60_000);
  rmSync(dataDir, { recursive: true, force: true });
});

describe("npm run demo", () => {
  it("serves a page listing the local cluster and its brokers, then stops everything on SIGINT", async () => {
    launcher = startTs("scripts/launch.ts", ["--demo"], {
      DATABASE_URL: "",
      GROUPWATCH_CLUSTERS: "",
      GROUPWATCH_DATA_DIR: dataDir,
      GROUPWATCH_EMBEDDED_DB_PORT: String(dbPort),
      PORT: String(webPort),
      KAFKA_PORT: kafkaPort,
      // Sign-in from defaults: admin "admin", password and session secret generated in dataDir.
      GROUPWATCH_ADMIN_USER: "",
      GROUPWATCH_ADMIN_PASSWORD: "",
      NEXTAUTH_SECRET: "",
      AUTH_SECRET: "",
    });
    const [, url] = await launcher.waitForOutput(/groupwatch is running: (http:\/\/\S+)/, 300_000);

    // The generated admin password: printed once, kept in the data dir readable by its owner only.
    const [, password] = /created the admin user "admin" with the password: (\S+)/.exec(launcher.output())!;
    const passwordFile = path.join(dataDir, "admin-password");
    expect(readFileSync(passwordFile, "utf8").trim()).toBe(password);
    expect(statSync(passwordFile).mode & 0o777).toBe(0o600);

    const anonymousPage = await fetch(url!, { redirect: "manual" });
    expect(anonymousPage.status).toBe(307);
    expect(anonymousPage.headers.get("location")).toMatch(/\/login\?callbackUrl=%2F$/);
    const anonymousApi = await fetch(`${url}/api/clusters`);
    expect(anonymousApi.status).toBe(401);
    expect(await anonymousApi.json()).toEqual({ error: expect.any(String) as unknown });
    expect((await fetch(`${url}/api/health`)).status).toBe(200);

    const cookie = await signIn(url!, "admin", password!);
    // The page is the app shell; its live data comes from the API (the browser tests render it).
    const page = await fetch(url!, { headers: { cookie } });
    expect(page.status, `${await page.clone().text()}\n${launcher.output().slice(-4000)}`).toBe(200);
    expect(await page.text()).toContain("groupwatch");

    type Clusters = {
      clusters: { name: string; status: { state: string; brokers: { port: number }[] } | null }[];
    };
    const local = await waitFor(
      "the local cluster polled, with its broker",
      async () => {
        const res = await fetch(`${url}/api/clusters`, { headers: { cookie } });
        expect(res.status, await res.clone().text()).toBe(200);
        const c = ((await res.json()) as Clusters).clusters.find((x) => x.name === "local");
        return c?.status?.state === "ok" ? c : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 500 },
    );
    expect(local.status?.brokers.map((b) => b.port)).toEqual([Number(kafkaPort)]);

    launcher.child.kill("SIGINT");
    await waitFor("the launcher to exit", () => launcher!.child.exitCode !== null, { timeoutMs: 60_000 });
    expect(launcher.child.exitCode).toBe(0);
    expect(await portOpen(webPort)).toBe(false);
    expect(await portOpen(dbPort)).toBe(false);
    // The shared test broker was reused, so the launcher must have left it running.
    expect(await portOpen(Number(kafkaPort))).toBe(true);
  });
});
