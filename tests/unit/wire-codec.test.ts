import { describe, expect, test } from "vitest";

import { Decoder, Encoder, WireDecodeError, uuidFromString, uuidToString } from "../../lib/kafka/wire/codec";
import { pickVersion } from "../../lib/kafka/wire/protocol";
import { errorName } from "../../lib/kafka/wire/errors";

const hex = (e: Encoder) => e.toBuffer().toString("hex");
const dec = (h: string, flexible = false) => new Decoder(Buffer.from(h, "hex"), flexible);

describe("unsigned varint", () => {
  test.each([
    { label: "zero", value: 0, bytes: "00" },
    { label: "one", value: 1, bytes: "01" },
    { label: "largest one-byte", value: 127, bytes: "7f" },
    { label: "smallest two-byte", value: 128, bytes: "8001" },
    { label: "300 (protobuf docs example)", value: 300, bytes: "ac02" },
    { label: "largest two-byte", value: 16383, bytes: "ff7f" },
    { label: "smallest three-byte", value: 16384, bytes: "808001" },
    { label: "int32 max", value: 2 ** 31 - 1, bytes: "ffffffff07" },
    { label: "uint32 max", value: 2 ** 32 - 1, bytes: "ffffffff0f" },
  ])("$label: $value <-> $bytes", ({ value, bytes }) => {
    expect(hex(new Encoder().uvarint(value))).toBe(bytes);
    const d = dec(bytes);
    expect(d.uvarint()).toBe(value);
    expect(d.remaining).toBe(0);
  });

  test.each([
    { label: "negative", value: -1 },
    { label: "above uint32", value: 2 ** 32 },
    { label: "fraction", value: 1.5 },
  ])("rejects $label", ({ value }) => {
    expect(() => new Encoder().uvarint(value)).toThrow(RangeError);
  });

  test.each([
    { label: "truncated", bytes: "80" },
    { label: "six bytes", bytes: "808080808001" },
    { label: "beyond uint32", bytes: "ffffffff1f" },
  ])("decode fails on $label input", ({ bytes }) => {
    expect(() => dec(bytes).uvarint()).toThrow(WireDecodeError);
  });
});

describe("zig-zag varint", () => {
  test.each([
    { value: 0, bytes: "00" },
    { value: -1, bytes: "01" },
    { value: 1, bytes: "02" },
    { value: -64, bytes: "7f" },
    { value: 64, bytes: "8001" },
    { value: 2 ** 31 - 1, bytes: "feffffff0f" },
    { value: -(2 ** 31), bytes: "ffffffff0f" },
  ])("$value <-> $bytes", ({ value, bytes }) => {
    expect(hex(new Encoder().varint(value))).toBe(bytes);
    expect(dec(bytes).varint()).toBe(value);
  });
});

describe("strings, bytes and arrays: classic and compact forms", () => {
  test.each([
    { label: "classic string", flexible: false, write: (e: Encoder) => e.string("abc"), bytes: "0003616263" },
    { label: "classic empty string", flexible: false, write: (e: Encoder) => e.string(""), bytes: "0000" },
    {
      label: "classic null string",
      flexible: false,
      write: (e: Encoder) => e.nullableString(null),
      bytes: "ffff",
    },
    { label: "compact string", flexible: true, write: (e: Encoder) => e.string("abc"), bytes: "04616263" },
    { label: "compact empty string", flexible: true, write: (e: Encoder) => e.string(""), bytes: "01" },
    {
      label: "compact null string",
      flexible: true,
      write: (e: Encoder) => e.nullableString(null),
      bytes: "00",
    },
    { label: "utf-8 string", flexible: true, write: (e: Encoder) => e.string("é"), bytes: "03c3a9" },
    {
      label: "classic bytes",
      flexible: false,
      write: (e: Encoder) => e.bytes(Buffer.from([1, 2])),
      bytes: "000000020102",
    },
    {
      label: "classic null bytes",
      flexible: false,
      write: (e: Encoder) => e.nullableBytes(null),
      bytes: "ffffffff",
    },
    {
      label: "compact bytes",
      flexible: true,
      write: (e: Encoder) => e.bytes(Buffer.from([1, 2])),
      bytes: "030102",
    },
    {
      label: "classic int32 array",
      flexible: false,
      write: (e: Encoder) => e.array([1, 2], (x, n) => x.int32(n)),
      bytes: "000000020000000100000002",
    },
    {
      label: "compact int32 array",
      flexible: true,
      write: (e: Encoder) => e.array([1, 2], (x, n) => x.int32(n)),
      bytes: "030000000100000002",
    },
    {
      label: "compact empty array",
      flexible: true,
      write: (e: Encoder) => e.array([], () => undefined),
      bytes: "01",
    },
    {
      label: "compact null array",
      flexible: true,
      write: (e: Encoder) => e.nullableArray(null, () => undefined),
      bytes: "00",
    },
    {
      label: "classic null array",
      flexible: false,
      write: (e: Encoder) => e.nullableArray(null, () => undefined),
      bytes: "ffffffff",
    },
    {
      label: "tags are written only when flexible",
      flexible: false,
      write: (e: Encoder) => e.tags(),
      bytes: "",
    },
    { label: "empty tagged-field section", flexible: true, write: (e: Encoder) => e.tags(), bytes: "00" },
    { label: "int64 -1", flexible: false, write: (e: Encoder) => e.int64(-1n), bytes: "ffffffffffffffff" },
    {
      label: "int64 max",
      flexible: false,
      write: (e: Encoder) => e.int64(2n ** 63n - 1n),
      bytes: "7fffffffffffffff",
    },
    { label: "bool", flexible: false, write: (e: Encoder) => e.bool(true).bool(false), bytes: "0100" },
  ])("$label -> $bytes", ({ flexible, write, bytes }) => {
    const e = new Encoder(flexible);
    write(e);
    expect(hex(e)).toBe(bytes);
  });
});

describe("round trips", () => {
  test.each([
    { label: "classic", flexible: false },
    { label: "flexible", flexible: true },
  ])("a nested structure ($label)", ({ flexible }) => {
    const value = {
      id: "gw-group",
      note: null as string | null,
      offset: 1234567890123n,
      topics: [
        { name: "orders", partitions: [0, 5, 2 ** 31 - 1] },
        { name: "", partitions: [] as number[] },
      ],
      blob: Buffer.from("cafe", "hex"),
    };
    const e = new Encoder(flexible)
      .string(value.id)
      .nullableString(value.note)
      .int64(value.offset)
      .array(value.topics, (x, t) =>
        x
          .string(t.name)
          .array(t.partitions, (y, p) => y.int32(p))
          .tags(),
      )
      .bytes(value.blob)
      .tags();
    const d = new Decoder(e.toBuffer(), flexible);
    const back = {
      id: d.string(),
      note: d.nullableString(),
      offset: d.int64(),
      topics: d.array((x) => {
        const t = { name: x.string(), partitions: x.array((y) => y.int32()) };
        x.tags();
        return t;
      }),
      blob: d.bytes(),
    };
    d.tags();
    expect(back).toEqual(value);
    expect(d.remaining).toBe(0);
  });

  test("skips tagged fields it does not know", () => {
    // two tagged fields: tag 0 with 2 bytes, tag 5 with 1 byte; then an int8
    const d = dec("02" + "0002abcd" + "0501ff" + "07", true);
    d.tags();
    expect(d.int8()).toBe(7);
    expect(d.remaining).toBe(0);
  });

  test.each([
    { label: "truncated int32", read: (d: Decoder) => d.int32(), bytes: "000001" },
    { label: "string longer than the buffer", read: (d: Decoder) => d.string(), bytes: "0005616263" },
    { label: "null where a string is required", read: (d: Decoder) => d.string(), bytes: "ffff" },
    {
      label: "array length beyond the buffer",
      read: (d: Decoder) => d.array((x) => x.int8()),
      bytes: "7fffffff00",
    },
  ])("decode fails cleanly: $label", ({ read, bytes }) => {
    expect(() => read(dec(bytes))).toThrow(WireDecodeError);
  });
});

describe("UUIDs print as Kafka does (URL-safe base64, no padding)", () => {
  test.each([
    { label: "a topic id", id: "uaVRdtmASkishIwtiwuoPw" },
    { label: "with - and _", id: "CAQV8LrTS_yU796xNtjNDw" },
  ])("$label round-trips", ({ id }) => {
    const bytes = uuidFromString(id);
    expect(bytes).toHaveLength(16);
    expect(uuidToString(bytes)).toBe(id);
    expect(new Decoder(new Encoder().uuid(id).toBuffer()).uuid()).toBe(id);
  });

  test("the zero UUID means none", () => {
    expect(uuidToString(Buffer.alloc(16))).toBeNull();
    expect(hex(new Encoder().uuid(null))).toBe("00".repeat(16));
  });
});

describe("version negotiation", () => {
  test.each([
    { label: "broker newer than us", ours: { min: 0, max: 5 }, theirs: { min: 0, max: 6 }, expected: 5 },
    { label: "broker older than us", ours: { min: 0, max: 6 }, theirs: { min: 0, max: 4 }, expected: 4 },
    {
      label: "broker dropped old versions",
      ours: { min: 1, max: 11 },
      theirs: { min: 1, max: 9 },
      expected: 9,
    },
    { label: "no overlap", ours: { min: 8, max: 9 }, theirs: { min: 0, max: 7 }, expected: null },
    { label: "API unknown to the broker", ours: { min: 0, max: 1 }, theirs: null, expected: null },
  ])("$label -> $expected", ({ ours, theirs, expected }) => {
    expect(pickVersion(ours, theirs)).toBe(expected);
  });
});

describe("error names", () => {
  test.each([
    { code: 0, name: "NONE" },
    { code: -1, name: "UNKNOWN_SERVER_ERROR" },
    { code: 3, name: "UNKNOWN_TOPIC_OR_PARTITION" },
    { code: 6, name: "NOT_LEADER_OR_FOLLOWER" },
    { code: 14, name: "COORDINATOR_LOAD_IN_PROGRESS" },
    { code: 15, name: "COORDINATOR_NOT_AVAILABLE" },
    { code: 16, name: "NOT_COORDINATOR" },
    { code: 29, name: "TOPIC_AUTHORIZATION_FAILED" },
    { code: 30, name: "GROUP_AUTHORIZATION_FAILED" },
    { code: 35, name: "UNSUPPORTED_VERSION" },
    { code: 69, name: "GROUP_ID_NOT_FOUND" },
    { code: 9999, name: "UNKNOWN_ERROR_9999" },
  ])("$code -> $name", ({ code, name }) => {
    expect(errorName(code)).toBe(name);
  });
});
