// A small live workload for `npm run demo`: one producer on two topics and a few consumer
// groups with different behaviours, so the dashboard has something to watch:
//   demo-orders-fast   2 members, keeps up; one member restarts every few minutes (rebalances)
//   demo-orders-slow   1 member, processes slowly: lag builds up
//   demo-payments      1 member on demo.payments
// Runs until SIGINT/SIGTERM, then closes every client cleanly.
import { Kafka, logLevel, type Consumer, type Producer } from "kafkajs";

const brokers = (process.env.DEMO_BROKERS ?? "127.0.0.1:9092").split(",");
const kafka = new Kafka({ clientId: "groupwatch-demo", brokers, logLevel: logLevel.ERROR });
const topics = [
  { topic: "demo.orders", numPartitions: 6 },
  { topic: "demo.payments", numPartitions: 3 },
];
const consumers = new Set<Consumer>();
const timers: NodeJS.Timeout[] = [];
let producer: Producer | null = null;
let stopping = false;

function log(msg: string) {
  process.stdout.write(`${new Date().toISOString()} ${msg}\n`);
}

async function startConsumer(groupId: string, topic: string, clientId: string, delayMs: number) {
  const consumer = new Kafka({ clientId, brokers, logLevel: logLevel.ERROR }).consumer({
    groupId,
    sessionTimeout: 10_000,
    heartbeatInterval: 1000,
  });
  consumers.add(consumer);
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({
    eachMessage: async () => {
      if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
    },
  });
  log(`consumer ${clientId} joined ${groupId}`);
  return consumer;
}

async function stopConsumer(consumer: Consumer) {
  consumers.delete(consumer);
  await consumer.disconnect();
}

async function main() {
  const admin = kafka.admin();
  await admin.connect();
  const existing = new Set(await admin.listTopics());
  const missing = topics.filter((t) => !existing.has(t.topic));
  if (missing.length > 0) await admin.createTopics({ topics: missing, waitForLeaders: true });
  await admin.disconnect();

  producer = kafka.producer();
  await producer.connect();
  let n = 0;
  timers.push(
    setInterval(() => {
      if (!producer || stopping) return;
      const orders = Array.from({ length: 20 }, () => ({ key: `o${n % 97}`, value: `order ${n++}` }));
      const payments = Array.from({ length: 5 }, () => ({ key: `p${n % 31}`, value: `payment ${n++}` }));
      producer
        .sendBatch({
          topicMessages: [
            { topic: "demo.orders", messages: orders },
            { topic: "demo.payments", messages: payments },
          ],
        })
        .catch((e: unknown) => log(`produce failed: ${String(e)}`));
    }, 500),
  );

  await startConsumer("demo-orders-fast", "demo.orders", "orders-fast-1", 0);
  let restartable = await startConsumer("demo-orders-fast", "demo.orders", "orders-fast-2", 0);
  await startConsumer("demo-orders-slow", "demo.orders", "orders-slow-1", 200);
  await startConsumer("demo-payments", "demo.payments", "payments-1", 0);

  // A member leaving and coming back: one rebalance out, one in.
  timers.push(
    setInterval(() => {
      if (stopping) return;
      log("restarting orders-fast-2 (expect two rebalances of demo-orders-fast)");
      stopConsumer(restartable)
        .then(() => startConsumer("demo-orders-fast", "demo.orders", "orders-fast-2", 0))
        .then((c) => {
          restartable = c;
        })
        .catch((e: unknown) => log(`restart failed: ${String(e)}`));
    }, 180_000),
  );
  log("demo workload running");
}

async function shutdown() {
  if (stopping) return;
  stopping = true;
  timers.forEach(clearInterval);
  await Promise.allSettled([...consumers].map((c) => c.disconnect()));
  await producer?.disconnect().catch(() => undefined);
  process.exit(0);
}

process.on("SIGINT", () => void shutdown());
process.on("SIGTERM", () => void shutdown());
main().catch((e: unknown) => {
  log(`demo workload failed: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
