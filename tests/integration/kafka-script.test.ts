import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

import { Kafka, logLevel } from "kafkajs";
import { afterAll, describe, expect, it } from "vitest";

import { KafkaWire } from "../../lib/kafka/wire";
import { logger } from "../../lib/logger";
import { portOpen } from "../../scripts/lib/process";
import { root, uniqueName } from "../fixtures/processes";

const exec = promisify(execFile);
const script = path.join(root, "scripts/kafka.sh");
const tmp: string[] = [];

afterAll(() => tmp.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A PATH holding every command of /usr/bin and /bin except the named ones. */
function pathWithout(excluded: string[]): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "gw-path-"));
  tmp.push(dir);
  for (const src of ["/usr/bin", "/bin"]) {
    for (const name of readdirSync(src)) {
      if (excluded.includes(name)) continue;
      try {
        symlinkSync(path.join(src, name), path.join(dir, name));
      } catch {
        // same name in both folders
      }
    }
  }
  return dir;
}

async function runScript(args: string[], env: Record<string, string>) {
  try {
    const r = await exec("bash", [script, ...args], { env: { ...process.env, ...env } });
    return { code: 0, stderr: r.stderr };
  } catch (e) {
    const err = e as { code: number; stderr: string };
    return { code: err.code, stderr: err.stderr };
  }
}

describe("scripts/kafka.sh", () => {
  it("fails with exit 2 and an install hint when java is missing", async () => {
    const r = await runScript(["start"], {
      PATH: pathWithout(["java"]),
      JAVA_HOME: "",
      KAFKA_PORT: "9392",
      GROUPWATCH_KAFKA_HOME: mkdtempSync(path.join(os.tmpdir(), "gw-kafka-")),
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/java not found[\s\S]*apt-get install/);
    expect(await portOpen(9392)).toBe(false);
  });

  it("fails with exit 2 when maven is missing and the jars are not cached", async () => {
    const r = await runScript(["start"], {
      PATH: pathWithout(["mvn"]),
      KAFKA_PORT: "9392",
      KAFKA_VERSION: "4.1.0",
      GROUPWATCH_CACHE_DIR: mkdtempSync(path.join(os.tmpdir(), "gw-cache-")),
      GROUPWATCH_KAFKA_HOME: mkdtempSync(path.join(os.tmpdir(), "gw-kafka-")),
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/mvn not found/);
  });

  it("runs a Kafka 3.9 broker beside the default one and answers admin requests", async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), "gw-kafka39-"));
    tmp.push(home);
    const env = { KAFKA_PORT: "9192", KAFKA_VERSION: "3.9.2", GROUPWATCH_KAFKA_HOME: home };
    const started = await runScript(["start"], env);
    expect(started.stderr).not.toMatch(/died|timed out/);
    expect(started.code).toBe(0);
    try {
      const status = await runScript(["status"], env);
      expect(status.code).toBe(0);
      const admin = new Kafka({
        clientId: "gw-test",
        brokers: ["127.0.0.1:9192"],
        logLevel: logLevel.NOTHING,
      }).admin();
      await admin.connect();
      const topic = uniqueName("gw-39");
      await admin.createTopics({ topics: [{ topic, numPartitions: 2 }], waitForLeaders: true });
      const wire = KafkaWire.create(
        { clusterName: "k39", brokers: ["127.0.0.1:9192"], clientId: "gw-test" },
        logger,
      );
      await wire.connect();
      const md = await wire.metadata();
      await wire.disconnect();
      expect(md.brokers.map((b) => b.port)).toEqual([9192]);
      expect(md.topics.map((t) => t.name)).toContain(topic);
      expect(await admin.listTopics()).toContain(topic);
      await admin.disconnect();
    } finally {
      const stopped = await runScript(["stop", "--wipe"], env);
      expect(stopped.code).toBe(0);
    }
    expect(await portOpen(9192)).toBe(false);
    expect((await runScript(["status"], env)).code).toBe(3);
  });
});
