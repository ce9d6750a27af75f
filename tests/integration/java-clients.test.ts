import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { Kafka, logLevel, type Admin, type Producer } from "kafkajs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

import { waitFor } from "../../scripts/lib/process";
import { compileJavaConsumer, startJavaConsumer, type JavaConsumer } from "../fixtures/java-consumer";
import { describeMembers, describeOffsets, describeState } from "../fixtures/kafka-tool";
import { uniqueName } from "../fixtures/processes";

// Apache Kafka's own Java consumer (tests/clients/java/GwConsumer.java) against the real broker,
// read back with Kafka's own ConsumerGroupCommand (tests/fixtures/kafka-tool.ts), with the broker
// log (GroupCoordinator lines) as the ground truth for why each rebalance happened.

const bootstrap = inject("kafkaBootstrap");
const kafkaVersion = inject("kafkaVersion");
const port = bootstrap.split(":")[1]!;
const tool = { port };
const serverLog = path.join(
  process.env.GROUPWATCH_KAFKA_HOME ?? path.join(os.homedir(), ".cache/groupwatch/run"),
  `kafka-${port}`,
  "logs/server.log",
);
const kip848 = Number(kafkaVersion.split(".")[0]) >= 4;

let admin: Admin;
let producer: Producer;
const consumers: JavaConsumer[] = [];
let logStart = 0;

function start(opts: Omit<Parameters<typeof startJavaConsumer>[0], "bootstrap">): JavaConsumer {
  const c = startJavaConsumer({ bootstrap, ...opts });
  consumers.push(c);
  return c;
}

async function createTopic(prefix: string, numPartitions = 3): Promise<string> {
  const topic = uniqueName(prefix);
  await admin.createTopics({ topics: [{ topic, numPartitions }], waitForLeaders: true });
  return topic;
}

/** GroupCoordinator lines of the broker log that mention the group (since this file started). */
function brokerLog(groupId: string): string[] {
  const size = fs.statSync(serverLog).size;
  const from = size >= logStart ? logStart : 0; // rotated meanwhile: read the new file whole
  const fd = fs.openSync(serverLog, "r");
  try {
    const buf = Buffer.alloc(size - from);
    fs.readSync(fd, buf, 0, buf.length, from);
    return buf
      .toString("utf8")
      .split("\n")
      .filter((l) => l.includes("GroupCoordinator") && l.includes(groupId));
  } finally {
    fs.closeSync(fd);
  }
}

function waitForLogLine(groupId: string, pattern: RegExp, timeoutMs = 20_000): Promise<string> {
  return waitFor(
    `broker log line ${String(pattern)} for ${groupId}`,
    () => brokerLog(groupId).find((l) => pattern.test(l)),
    {
      timeoutMs,
      intervalMs: 250,
    },
  );
}

/** Prints the evidence so a run shows the broker's own wording. */
function show(label: string, lines: string[]) {
  console.log(
    `[${label}]\n${lines.map((l) => `  ${l.replace(/ \(org\.apache\.kafka\.[\w.]+\)$/, "")}`).join("\n")}`,
  );
}

function members(e: Record<string, unknown>): string {
  return String(e.memberId);
}

beforeAll(async () => {
  logStart = fs.statSync(serverLog).size;
  const kafka = new Kafka({
    clientId: "groupwatch-java-it",
    brokers: [bootstrap],
    logLevel: logLevel.NOTHING,
  });
  admin = kafka.admin();
  producer = kafka.producer();
  await Promise.all([admin.connect(), producer.connect()]);
  compileJavaConsumer(); // once, before the first deadline starts
});

afterAll(async () => {
  await Promise.all(consumers.map((c) => c.stop()));
  await Promise.all([admin?.disconnect(), producer?.disconnect()]);
});

describe("Java consumer + kafka-consumer-groups against the real broker", () => {
  it("a classic static member shows its group.instance.id; a restart within the session timeout reuses the slot", async () => {
    const topic = await createTopic("gw-java-static");
    const groupId = uniqueName("gw-java-static");
    const first = start({
      groupId,
      topics: [topic],
      clientId: "java-static-1",
      groupInstanceId: "static-1",
      sessionTimeoutMs: 30_000,
    });
    const started = await first.waitForEvent("started");
    const assigned = await first.waitForEvent("assigned");
    console.log(
      `JVM client (Kafka ${first.kafkaVersion}): "started" after ${Number(started.ts) - first.spawnedAt} ms, ` +
        `"assigned" after ${Number(assigned.ts) - first.spawnedAt} ms`,
    );
    expect(assigned.groupInstanceId).toBe("static-1");

    const row = await waitFor("static member in --describe --members", async () => {
      const { rows } = await describeMembers(groupId, tool);
      return rows.find((r) => r.groupInstanceId === "static-1");
    });
    expect(row).toMatchObject({
      group: groupId,
      consumerId: members(assigned),
      clientId: "java-static-1",
      partitions: 3,
      assignment: kip848 ? [{ topic, partitions: [0, 1, 2] }] : [{ topic: null, partitions: [0, 1, 2] }],
    });
    expect(row.consumerId.startsWith("static-1-")).toBe(true);
    const join = await waitForLogLine(groupId, /Static member with groupInstanceId=static-1 .* joins group/);

    // A static member does not send LeaveGroup on close: it stays until the session timeout...
    await first.stop();
    expect(first.events.map((e) => e.event)).toContain("closed");
    const during = await describeState(groupId, tool);
    expect(during.rows[0]).toMatchObject({ state: "Stable", members: 1 });

    // ...so a restart with the same instance id takes the slot over: new member id, same assignment.
    const second = start({
      groupId,
      topics: [topic],
      clientId: "java-static-1",
      groupInstanceId: "static-1",
      sessionTimeoutMs: 30_000,
    });
    const reassigned = await second.waitForEvent("assigned");
    expect(members(reassigned)).not.toBe(members(assigned));
    const after = await waitFor("new member id in --describe --members", async () => {
      const { rows } = await describeMembers(groupId, tool);
      return rows.length === 1 && rows[0]!.consumerId === members(reassigned) ? rows[0] : undefined;
    });
    expect(after).toMatchObject({ groupInstanceId: "static-1", partitions: 3 });
    const rejoin = await waitForLogLine(
      groupId,
      new RegExp(
        `Static member with groupInstanceId=static-1 .* Replacing previously mapped member ${members(assigned)}`,
      ),
    );
    // No rebalance: the only "Preparing to rebalance" line is the first join's.
    expect(brokerLog(groupId).filter((l) => l.includes("Preparing to rebalance"))).toHaveLength(1);
    show("static member join + restart", [join, rejoin]);
  });

  it.runIf(kip848)(
    "a KIP-848 consumer (group.protocol=consumer) reaches Stable as a consumer-protocol group",
    async () => {
      const topic = await createTopic("gw-java-848");
      const groupId = uniqueName("gw-java-848");
      const c = start({ groupId, topics: [topic], clientId: "java-848", groupProtocol: "consumer" });
      const assigned = await c.waitForMatch("assignment of 3 partitions", (e) => {
        return e.event === "assigned" && (e.assignment as unknown[]).length === 3;
      });

      const state = await waitFor("consumer group Stable", async () => {
        const { rows } = await describeState(groupId, tool);
        return rows[0]?.state === "Stable" ? rows[0] : undefined;
      });
      expect(state).toMatchObject({
        group: groupId,
        groupProtocol: "consumer",
        assignmentStrategy: "uniform",
        members: 1,
        coordinator: { host: "127.0.0.1", port: Number(port) },
      });
      expect(state.groupEpoch).toBeGreaterThan(0);
      expect(state.targetAssignmentEpoch).toBe(state.groupEpoch);

      const { rows } = await describeMembers(groupId, tool);
      expect(rows).toEqual([
        expect.objectContaining({
          consumerId: members(assigned),
          clientId: "java-848",
          currentEpoch: state.groupEpoch,
          targetEpoch: state.groupEpoch,
          assignment: [{ topic, partitions: [0, 1, 2] }],
          targetAssignment: [{ topic, partitions: [0, 1, 2] }],
        }),
      ]);
      show("KIP-848 join", brokerLog(groupId).slice(0, 3));
    },
  );

  it("a consumer that stalls past max.poll.interval.ms leaves the group and rejoins under a new member id", async () => {
    const topic = await createTopic("gw-java-stall");
    const groupId = uniqueName("gw-java-stall");
    const c = start({
      groupId,
      topics: [topic],
      clientId: "java-staller",
      maxPollIntervalMs: 5_000,
      sessionTimeoutMs: 30_000,
      stallAfterMs: 6_000,
      stallForMs: 9_000,
    });
    const first = await c.waitForEvent("assigned");
    const before = await waitFor("member in --describe --members", async () => {
      const { rows } = await describeMembers(groupId, tool);
      return rows[0]?.consumerId === members(first) ? rows[0] : undefined;
    });
    const stall = await c.waitForEvent("stall-start", 30_000);
    expect(Number(stall.ts)).toBeGreaterThan(Number(first.ts)); // it had joined before stalling

    // The heartbeat thread sends LeaveGroup once max.poll.interval.ms has passed without poll().
    const leave = await waitForLogLine(groupId, /poll timeout/i, 30_000);
    expect(leave).toContain(members(first));
    await c.waitForEvent("stall-end", 30_000);
    const second = await c.waitForMatch(
      "assignment after the rejoin",
      (e) =>
        e.event === "assigned" && members(e) !== members(first) && (e.assignment as unknown[]).length === 3,
      30_000,
    );
    const after = await waitFor("new member id in --describe --members", async () => {
      const { rows } = await describeMembers(groupId, tool);
      return rows.length === 1 && rows[0]!.consumerId === members(second) ? rows[0] : undefined;
    });
    expect(after.consumerId).not.toBe(before.consumerId);
    expect(after).toMatchObject({ clientId: "java-staller", host: before.host, partitions: 3 });
    show("poll timeout", brokerLog(groupId));
  });

  it("SIGTERM closes the consumer: it prints closed, leaves, and the group is Empty at once", async () => {
    const topic = await createTopic("gw-java-term");
    const groupId = uniqueName("gw-java-term");
    const c = start({ groupId, topics: [topic], clientId: "java-term" });
    await c.waitForEvent("assigned");
    await producer.send({
      topic,
      messages: [
        { partition: 0, value: "a" },
        { partition: 1, value: "b" },
      ],
    });
    await waitFor("commits of both records", () => {
      const committed = c.events
        .filter((e) => e.event === "committed")
        .flatMap((e) => e.offsets as { partition: number; offset: number }[]);
      return committed.some((o) => o.partition === 0) && committed.some((o) => o.partition === 1);
    });
    await waitFor(
      "group Stable",
      async () => (await describeState(groupId, tool)).rows[0]?.state === "Stable",
    );

    const t0 = Date.now();
    await c.stop();
    expect(c.child.exitCode).toBe(143); // the JVM's exit status after SIGTERM, once the shutdown hook is done
    expect(c.events.at(-1)).toMatchObject({ event: "closed" });
    const state = await waitFor(
      "group Empty",
      async () => {
        const r = await describeState(groupId, tool);
        return r.rows[0]?.state === "Empty" ? r : undefined;
      },
      { timeoutMs: 10_000, intervalMs: 100 },
    );
    const elapsed = Date.now() - t0;
    expect(state.rows[0]).toMatchObject({ members: 0 });
    expect(state.notices).toContainEqual(
      expect.objectContaining({ kind: "no-active-members", group: groupId }),
    );
    // (each describe is a JVM start of its own: "quickly" = well under the 45 s session timeout)
    expect(elapsed).toBeLessThan(10_000);

    const offsets = await describeOffsets(groupId, tool);
    const committed = offsets.rows.filter((r) => r.currentOffset !== null);
    expect(committed.sort((a, b) => (a.partition ?? 0) - (b.partition ?? 0))).toEqual([
      expect.objectContaining({
        partition: 0,
        currentOffset: 1n,
        logEndOffset: 1n,
        lag: 0n,
        consumerId: "-",
      }),
      expect.objectContaining({
        partition: 1,
        currentOffset: 1n,
        logEndOffset: 1n,
        lag: 0n,
        consumerId: "-",
      }),
    ]);
    await waitForLogLine(groupId, /LeaveGroup/);
    console.log(`SIGTERM -> describe --state shows Empty: ${elapsed} ms`);
    show(
      "graceful leave",
      brokerLog(groupId).filter((l) => /Preparing to rebalance|LeaveGroup|empty/.test(l)),
    );
  });

  it("a subscription change on stdin moves the member to the new topics", async () => {
    const t1 = await createTopic("gw-java-sub-a", 1);
    const t2 = await createTopic("gw-java-sub-b", 2);
    const groupId = uniqueName("gw-java-sub");
    const c = start({ groupId, topics: [t1], clientId: "java-sub" });
    await c.waitForEvent("assigned");
    c.subscribe([t1, t2]);
    await c.waitForMatch(
      "subscribed to both",
      (e) => e.event === "subscribed" && (e.topics as string[]).length === 2,
    );
    await c.waitForMatch("assignment with both topics", (e) => {
      return e.event === "assigned" && (e.assignment as unknown[]).length === 3;
    });
    const row = await waitFor("both topics in --describe --members", async () => {
      const { rows } = await describeMembers(groupId, tool);
      return rows[0]?.partitions === 3 ? rows[0] : undefined;
    });
    if (kip848) {
      expect(row.assignment).toEqual([
        { topic: t1, partitions: [0] },
        { topic: t2, partitions: [0, 1] },
      ]);
    }
    show(
      "subscription change",
      brokerLog(groupId).filter((l) => /Preparing to rebalance/.test(l)),
    );
  });

  it("a crashed (SIGKILL) member is removed after session.timeout.ms", async () => {
    const topic = await createTopic("gw-java-crash", 1);
    const groupId = uniqueName("gw-java-crash");
    const c = start({
      groupId,
      topics: [topic],
      clientId: "java-crash",
      sessionTimeoutMs: 3_000,
      heartbeatIntervalMs: 500,
    });
    const assigned = await c.waitForEvent("assigned");
    await waitFor(
      "group Stable",
      async () => (await describeState(groupId, tool)).rows[0]?.state === "Stable",
    );
    await c.kill();
    const expired = await waitForLogLine(groupId, /expir/i, 20_000);
    expect(expired).toContain(members(assigned));
    await waitFor(
      "group Empty",
      async () => (await describeState(groupId, tool)).rows[0]?.state === "Empty",
      {
        timeoutMs: 15_000,
      },
    );
    show(
      "crash",
      brokerLog(groupId).filter((l) => /expir|Preparing to rebalance|empty/i.test(l)),
    );
  });
});
