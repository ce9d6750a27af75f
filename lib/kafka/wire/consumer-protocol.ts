import { Decoder, Encoder } from "./codec";

// The "consumer" embedded protocol of classic groups: member metadata (ConsumerProtocolSubscription)
// and assignment (ConsumerProtocolAssignment), versions 0-3, never flexible. Fields are only ever
// appended, so a newer version is read with the newest layout we know (as the Java client does).

export interface TopicPartitions {
  topic: string;
  partitions: number[];
}

export interface ConsumerSubscription {
  version: number;
  topics: string[];
  userData: Buffer | null;
  /** v1+ */
  ownedPartitions: TopicPartitions[];
  /** v2+, null when absent or -1 */
  generationId: number | null;
  /** v3+ */
  rackId: string | null;
}

export interface ConsumerAssignment {
  version: number;
  assignment: TopicPartitions[];
  userData: Buffer | null;
}

const topicPartitions = (d: Decoder): TopicPartitions => ({
  topic: d.string(),
  partitions: d.array((x) => x.int32()),
});

/** Decodes member metadata; null for an empty buffer (members not yet Stable carry none). */
export function decodeSubscription(buf: Buffer): ConsumerSubscription | null {
  if (buf.length === 0) return null;
  const d = new Decoder(buf);
  const version = d.int16();
  const topics = d.array((x) => x.string());
  const userData = d.nullableBytes();
  // Some clients (kafkajs) write v1+ version numbers with fewer fields: stop when bytes run out.
  const ownedPartitions = version >= 1 && d.remaining > 0 ? d.array(topicPartitions) : [];
  const generationId = version >= 2 && d.remaining > 0 ? d.int32() : -1;
  const rackId = version >= 3 && d.remaining > 0 ? d.nullableString() : null;
  return {
    version,
    topics,
    userData,
    ownedPartitions,
    generationId: generationId === -1 ? null : generationId,
    rackId,
  };
}

/** Decodes a member assignment; null for an empty buffer. */
export function decodeAssignment(buf: Buffer): ConsumerAssignment | null {
  if (buf.length === 0) return null;
  const d = new Decoder(buf);
  const version = d.int16();
  const assignment = d.array(topicPartitions);
  const userData = d.remaining > 0 ? d.nullableBytes() : null;
  return { version, assignment, userData };
}

export function encodeSubscription(s: Omit<ConsumerSubscription, "version"> & { version: number }): Buffer {
  const e = new Encoder().int16(s.version);
  e.array(s.topics, (x, t) => x.string(t)).nullableBytes(s.userData);
  const tp = (x: Encoder, p: TopicPartitions) => x.string(p.topic).array(p.partitions, (y, n) => y.int32(n));
  if (s.version >= 1) e.array(s.ownedPartitions, tp);
  if (s.version >= 2) e.int32(s.generationId ?? -1);
  if (s.version >= 3) e.nullableString(s.rackId);
  return e.toBuffer();
}

export function encodeAssignment(a: ConsumerAssignment): Buffer {
  return new Encoder()
    .int16(a.version)
    .array(a.assignment, (x, p) => x.string(p.topic).array(p.partitions, (y, n) => y.int32(n)))
    .nullableBytes(a.userData)
    .toBuffer();
}
