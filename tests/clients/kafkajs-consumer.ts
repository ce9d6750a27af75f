// A real kafkajs consumer in its own process, driven by the integration tests.
// Config comes as JSON in argv[2]: { brokers, groupId, topics, clientId?, sessionTimeoutMs?,
// processDelayMs? }.
// Prints one JSON line per event on stdout: {"event":"joined",...}, {"event":"stopped"}.
// SIGTERM/SIGINT close the consumer (LeaveGroup); SIGKILL from the test simulates a crash.
import { Kafka, logLevel } from "kafkajs";

interface Config {
  brokers: string[];
  groupId: string;
  topics: string[];
  clientId?: string;
  sessionTimeoutMs?: number;
  /** Time spent per message: a slow consumer that a producer can outrun. */
  processDelayMs?: number;
}

const config = JSON.parse(process.argv[2] ?? "{}") as Config;
const emit = (event: string, extra: object = {}) =>
  process.stdout.write(`${JSON.stringify({ event, ...extra })}\n`);

const kafka = new Kafka({
  clientId: config.clientId ?? "groupwatch-test-consumer",
  brokers: config.brokers,
  logLevel: logLevel.ERROR,
});
const consumer = kafka.consumer({
  groupId: config.groupId,
  sessionTimeout: config.sessionTimeoutMs ?? 10_000,
  heartbeatInterval: 500,
});

consumer.on(consumer.events.GROUP_JOIN, (e) => {
  emit("joined", {
    memberId: e.payload.memberId,
    leaderId: e.payload.leaderId,
    isLeader: e.payload.isLeader,
    assignment: e.payload.memberAssignment,
  });
});

async function main() {
  await consumer.connect();
  for (const topic of config.topics) await consumer.subscribe({ topic, fromBeginning: true });
  const delay = config.processDelayMs ?? 0;
  await consumer.run({
    eachMessage: async () => {
      if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    },
  });
}

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await consumer.disconnect();
  emit("stopped");
  process.exit(0);
}
process.on("SIGTERM", () => void stop());
process.on("SIGINT", () => void stop());
main().catch((e: unknown) => {
  emit("error", { message: e instanceof Error ? e.message : String(e) });
  process.exit(1);
});
