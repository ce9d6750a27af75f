import { AssignerProtocol } from "kafkajs";
import { describe, expect, test } from "vitest";

import { WireDecodeError } from "../../lib/kafka/wire/codec";
import {
  decodeAssignment,
  decodeSubscription,
  encodeAssignment,
  encodeSubscription,
  type ConsumerSubscription,
} from "../../lib/kafka/wire/consumer-protocol";

// Member metadata and assignments of classic "consumer" groups, as kafkajs and the Java client
// write them (ConsumerProtocolSubscription / ConsumerProtocolAssignment v0-3).

const base: ConsumerSubscription = {
  version: 0,
  topics: ["orders", "payments"],
  userData: null,
  ownedPartitions: [],
  generationId: null,
  rackId: null,
};

describe("subscription", () => {
  test.each([
    { label: "v0: topics and user data", sub: { ...base, userData: Buffer.from("ud") } },
    {
      label: "v1: owned partitions",
      sub: { ...base, version: 1, ownedPartitions: [{ topic: "orders", partitions: [0, 2] }] },
    },
    { label: "v2: generation id", sub: { ...base, version: 2, generationId: 7 } },
    {
      label: "v3 (Java client 3.5+): rack id",
      sub: {
        ...base,
        version: 3,
        generationId: 12,
        rackId: "eu-west-1a",
        ownedPartitions: [{ topic: "payments", partitions: [1] }],
      },
    },
    { label: "v3 with no rack and no generation", sub: { ...base, version: 3 } },
  ])("$label round-trips", ({ sub }) => {
    expect(decodeSubscription(encodeSubscription(sub))).toEqual(sub);
  });

  test("a newer version is read with the v3 layout, trailing fields ignored", () => {
    const v3 = encodeSubscription({ ...base, version: 3, generationId: 4, rackId: "r1" });
    const v4 = Buffer.concat([v3, Buffer.from("00000001", "hex")]);
    v4.writeInt16BE(4, 0);
    expect(decodeSubscription(v4)).toMatchObject({
      version: 4,
      topics: base.topics,
      generationId: 4,
      rackId: "r1",
    });
  });

  test.each([
    { label: "kafkajs default (v0, empty user data)", version: 0 },
    { label: "kafkajs with a custom assigner version", version: 1 },
  ])("as kafkajs writes it: $label", ({ version }) => {
    const buf = AssignerProtocol.MemberMetadata.encode({
      version,
      topics: ["a", "b"],
      userData: Buffer.alloc(0),
    });
    // kafkajs never writes owned partitions, even under version 1: stop at the end of the buffer.
    expect(decodeSubscription(buf)).toEqual({
      version,
      topics: ["a", "b"],
      userData: Buffer.alloc(0),
      ownedPartitions: [],
      generationId: null,
      rackId: null,
    });
  });

  test("empty metadata (member of a group that is not Stable) -> null", () => {
    expect(decodeSubscription(Buffer.alloc(0))).toBeNull();
  });

  test("garbage throws a decode error", () => {
    expect(() => decodeSubscription(Buffer.from("0000ffffff00", "hex"))).toThrow(WireDecodeError);
  });
});

describe("assignment", () => {
  test.each([
    {
      label: "v0, two topics",
      a: { version: 0, assignment: [{ topic: "t", partitions: [2, 0] }], userData: null },
    },
    { label: "v3 with user data", a: { version: 3, assignment: [], userData: Buffer.from([9]) } },
  ])("$label round-trips", ({ a }) => {
    expect(decodeAssignment(encodeAssignment(a))).toEqual(a);
  });

  test("as kafkajs writes it", () => {
    const buf = AssignerProtocol.MemberAssignment.encode({
      version: 0,
      assignment: { orders: [1, 0], payments: [3] },
      userData: Buffer.alloc(0),
    });
    expect(decodeAssignment(buf)).toEqual({
      version: 0,
      assignment: [
        { topic: "orders", partitions: [1, 0] },
        { topic: "payments", partitions: [3] },
      ],
      userData: Buffer.alloc(0),
    });
  });

  test("empty assignment -> null", () => {
    expect(decodeAssignment(Buffer.alloc(0))).toBeNull();
  });
});
