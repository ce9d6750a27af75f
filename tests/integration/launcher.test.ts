import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

import { afterAll, describe, expect, inject, it } from "vitest";

import { portOpen, waitFor } from "../../scripts/lib/process";
import { startTs, type Managed } from "../fixtures/processes";

// `npm run demo` end to end on a fresh data directory: embedded PGlite, migrations, the local
// Kafka (reused from the test rig), collector, demo workload and web app. The page must list
// the local cluster with the brokers the collector wrote.

const bootstrap = inject("kafkaBootstrap");
const kafkaPort = bootstrap.split(":")[1]!;
const dataDir = mkdtempSync(path.join(os.tmpdir(), "groupwatch-demo-"));
const webPort = 31000 + Math.floor(Math.random() * 2000);
const dbPort = 56000 + Math.floor(Math.random() * 2000);
let launcher: Managed | undefined;

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
    });
    const [, url] = await launcher.waitForOutput(/groupwatch is running: (http:\/\/\S+)/, 300_000);

    const html = await waitFor(
      "the local cluster's brokers on the page",
      async () => {
        const res = await fetch(url!);
        const text = await res.text();
        return res.ok && text.includes('data-testid="broker"') ? text : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 500 },
    );
    expect(html).toContain('data-cluster-name="local"');
    expect(html).toMatch(new RegExp(`<td>127\\.0\\.0\\.1</td><td>${kafkaPort}</td>`));

    const api = (await (await fetch(`${url}/api/clusters`)).json()) as {
      clusters: { name: string; status: { state: string; brokers: { port: number }[] } | null }[];
    };
    const local = api.clusters.find((c) => c.name === "local");
    expect(local?.status?.state).toBe("ok");
    expect(local?.status?.brokers.map((b) => b.port)).toEqual([Number(kafkaPort)]);

    launcher.child.kill("SIGINT");
    await waitFor("the launcher to exit", () => launcher!.child.exitCode !== null, { timeoutMs: 60_000 });
    expect(launcher.child.exitCode).toBe(0);
    expect(await portOpen(webPort)).toBe(false);
    expect(await portOpen(dbPort)).toBe(false);
    // The shared test broker was reused, so the launcher must have left it running.
    expect(await portOpen(Number(kafkaPort))).toBe(true);
  });
});
