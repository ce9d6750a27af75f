import type { Kafka } from "kafkajs";

import type { Logger } from "../../logger";
import { createKafka, type KafkaConnectionConfig } from "../client";
import { Encoder } from "./codec";
import { decodeResponse, type VersionRange, type WireCall } from "./protocol";

// The ONLY file that touches kafkajs internals (kafkajs 2.2.4 is unmaintained, so they will not
// move). Requests we encode ride on kafkajs's own Cluster/Broker/Connection objects: SASL, TLS,
// correlation ids, in-flight limits, request timeouts and ApiVersions negotiation are reused,
// and there is no second network client. Everything else in lib/kafka/wire is plain protocol code.

export interface WireOptions {
  /** Per-request timeout; defaults to the connection config's requestTimeoutMs (else 10 s). */
  requestTimeoutMs?: number;
  /** Sees every response body (after the correlation id) before it is decoded: for fixtures. */
  onResponse?: (info: {
    apiName: string;
    apiKey: number;
    version: number;
    nodeId: number | null;
    body: Buffer;
  }) => void;
}

// ---- the slice of kafkajs internals we use (kafkajs/src/cluster, broker, network) ----
interface KjsRequest {
  request: {
    apiKey: number;
    apiVersion: number;
    apiName: string;
    // kafkajs's request framing copies `buffer` after checking that `buf` is a Buffer
    // (protocol/encoder.js writeEncoder): this shape stands in for its Encoder.
    encode: () => Promise<{ buf: Buffer; buffer: Buffer }>;
  };
  response: { decode: (payload: Buffer) => Promise<unknown>; parse: (data: unknown) => Promise<unknown> };
  requestTimeout?: number;
}
interface KjsBroker {
  nodeId: number | null;
  versions: Record<string, { minVersion: number; maxVersion: number }> | null;
  connectionPool: { send: (req: KjsRequest) => Promise<unknown> };
  connect: () => Promise<void>;
  disconnect: () => Promise<void>;
}
interface KjsCluster {
  connect: () => Promise<void>;
  disconnect: () => Promise<void>;
  refreshMetadata: () => Promise<void>;
  brokerPool: {
    brokers: Record<string, KjsBroker>;
    findBroker: (q: { nodeId: number }) => Promise<KjsBroker>;
    findConnectedBroker: () => Promise<KjsBroker>;
  };
}
type CreateCluster = (options: {
  metadataMaxAge: number;
  allowAutoTopicCreation: boolean;
  instrumentationEmitter: { emit: (event: string, payload: { apiName?: string; apiKey?: number }) => void };
}) => KjsCluster;

// Requests kafkajs sends by itself (connection handshake); counted from its instrumentation events.
const KAFKAJS_INTERNAL_KEYS = new Set([
  17 /* SaslHandshake */, 18 /* ApiVersions */, 36 /* SaslAuthenticate */,
]);

function createClusterOf(kafka: Kafka): CreateCluster {
  // `new Kafka()` keeps its cluster factory (all client options applied) under a private symbol.
  const symbol = Object.getOwnPropertySymbols(kafka).find(
    (s) => s.description === "private:Kafka:createCluster",
  );
  const factory = symbol ? (kafka as unknown as Record<symbol, unknown>)[symbol] : undefined;
  if (typeof factory !== "function")
    throw new Error("kafkajs internals changed: no private:Kafka:createCluster");
  return factory as CreateCluster;
}

function isStaleConnection(e: unknown): boolean {
  const name = e instanceof Error ? e.name : "";
  const message = e instanceof Error ? e.message : "";
  return (
    name === "KafkaJSConnectionClosedError" ||
    (name === "KafkaJSConnectionError" && message === "Not connected")
  );
}

export interface BrokerHandle {
  /** The versions of an API this broker supports (negotiated by kafkajs at connect), null for none. */
  versions: (apiKey: number) => VersionRange | null;
  /**
   * Sends one request, retrying once on a connection that turned out to be closed. Rejects when
   * the broker cannot be reached or the response does not decode; Kafka error codes inside the
   * response are the caller's business.
   */
  send: <T>(call: WireCall<T>) => Promise<T>;
}

export class KafkajsTransport {
  private constructor(
    private readonly cluster: KjsCluster,
    private readonly requestTimeoutMs: number,
    private readonly count: (apiName: string) => void,
    private readonly onResponse: WireOptions["onResponse"],
  ) {}

  static create(
    config: KafkaConnectionConfig,
    log: Logger,
    count: (apiName: string) => void,
    options: WireOptions = {},
  ): KafkajsTransport {
    const kafka = createKafka(config, log);
    const cluster = createClusterOf(kafka)({
      metadataMaxAge: 300_000,
      allowAutoTopicCreation: false,
      instrumentationEmitter: {
        emit: (event, payload) => {
          const internal = payload.apiKey !== undefined && KAFKAJS_INTERNAL_KEYS.has(payload.apiKey);
          if (internal && (event === "network.request" || event === "network.request_timeout"))
            count(payload.apiName ?? `key${payload.apiKey}`);
        },
      },
    });
    const timeout = options.requestTimeoutMs ?? config.requestTimeoutMs ?? 10_000;
    return new KafkajsTransport(cluster, timeout, count, options.onResponse);
  }

  connect(): Promise<void> {
    return this.cluster.connect();
  }

  disconnect(): Promise<void> {
    return this.cluster.disconnect();
  }

  /** kafkajs's own broker-discovery Metadata request (no topics): maps node ids to addresses. */
  private async refreshBrokers(): Promise<void> {
    this.count("Metadata");
    await this.cluster.refreshMetadata();
  }

  /** A connected broker: `nodeId`, or any broker of the cluster. */
  async broker(nodeId: number | "any"): Promise<BrokerHandle> {
    let broker: KjsBroker;
    if (nodeId === "any") broker = await this.cluster.brokerPool.findConnectedBroker();
    else {
      if (!this.cluster.brokerPool.brokers[nodeId]) await this.refreshBrokers();
      try {
        // brokerPool, not cluster.findBroker: that one refreshes metadata uncounted on failure.
        broker = await this.cluster.brokerPool.findBroker({ nodeId });
      } catch (e) {
        // The address may be stale (broker replaced): the next call uses fresh metadata.
        if (e instanceof Error && e.name === "KafkaJSConnectionError")
          await this.refreshBrokers().catch(() => undefined);
        throw e;
      }
    }
    return {
      versions: (apiKey) => {
        const v = broker.versions?.[apiKey];
        return v ? { min: v.minVersion, max: v.maxVersion } : null;
      },
      send: async (call) => {
        try {
          return await this.sendOn(broker, call);
        } catch (e) {
          if (!isStaleConnection(e)) throw e;
          await broker.disconnect().catch(() => undefined);
          await broker.connect();
          return this.sendOn(broker, call);
        }
      },
    };
  }

  private async sendOn<T>(broker: KjsBroker, call: WireCall<T>): Promise<T> {
    const enc = new Encoder(call.flexible);
    // Flexible versions use request header v2 = kafkajs's header v1 + an empty tagged-field section.
    enc.tags();
    call.encode(enc);
    const body = enc.toBuffer();
    this.count(call.apiName);
    const result = await broker.connectionPool.send({
      request: {
        apiKey: call.apiKey,
        apiVersion: call.version,
        apiName: call.apiName,
        encode: () => Promise.resolve({ buf: body, buffer: body }),
      },
      response: {
        decode: (payload: Buffer) => {
          this.onResponse?.({
            apiName: call.apiName,
            apiKey: call.apiKey,
            version: call.version,
            nodeId: broker.nodeId,
            body: payload,
          });
          return Promise.resolve(decodeResponse(payload, call));
        },
        parse: (data: unknown) => Promise.resolve(data),
      },
      requestTimeout: this.requestTimeoutMs,
    });
    return result as T;
  }
}
