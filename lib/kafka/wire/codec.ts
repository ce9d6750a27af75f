// Kafka protocol primitives (https://kafka.apache.org/protocol#protocol_types). One Encoder /
// Decoder pair serves both encodings: `flexible` switches strings, bytes and arrays to their
// compact forms (unsigned varint length + 1) and makes `tags()` read/write tagged-field sections.

export class WireDecodeError extends Error {
  override name = "WireDecodeError";
}

const UUID_BYTES = 16;

/** Kafka prints topic ids as URL-safe base64 without padding (org.apache.kafka.common.Uuid). */
export function uuidToString(bytes: Buffer): string | null {
  if (bytes.every((b) => b === 0)) return null;
  return bytes.toString("base64url");
}

export function uuidFromString(id: string | null): Buffer {
  if (id === null) return Buffer.alloc(UUID_BYTES);
  const bytes = Buffer.from(id, "base64url");
  if (bytes.length !== UUID_BYTES) throw new Error(`not a Kafka UUID: ${id}`);
  return bytes;
}

export class Encoder {
  private chunks: Buffer[] = [];

  constructor(readonly flexible = false) {}

  private push(buf: Buffer): this {
    this.chunks.push(buf);
    return this;
  }

  private fixed(size: number, write: (b: Buffer) => void): this {
    const b = Buffer.alloc(size);
    write(b);
    return this.push(b);
  }

  int8(v: number): this {
    return this.fixed(1, (b) => b.writeInt8(v));
  }
  int16(v: number): this {
    return this.fixed(2, (b) => b.writeInt16BE(v));
  }
  int32(v: number): this {
    return this.fixed(4, (b) => b.writeInt32BE(v));
  }
  int64(v: bigint): this {
    return this.fixed(8, (b) => b.writeBigInt64BE(v));
  }
  bool(v: boolean): this {
    return this.int8(v ? 1 : 0);
  }
  uuid(id: string | null): this {
    return this.push(uuidFromString(id));
  }

  /** Unsigned varint (7 bits per byte, low first), 0 .. 2^32-1. */
  uvarint(v: number): this {
    if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) throw new RangeError(`uvarint out of range: ${v}`);
    const out: number[] = [];
    let rest = v;
    while (rest >= 0x80) {
      out.push((rest % 0x80) | 0x80);
      rest = Math.floor(rest / 0x80);
    }
    out.push(rest);
    return this.push(Buffer.from(out));
  }

  /** Signed zig-zag varint (int32), as used in record batches. */
  varint(v: number): this {
    if (!Number.isInteger(v) || v < -0x80000000 || v > 0x7fffffff)
      throw new RangeError(`varint out of range: ${v}`);
    return this.uvarint(v >= 0 ? v * 2 : -v * 2 - 1);
  }

  /** Length prefix: int16/int32 (-1 for null) or compact uvarint N+1 (0 for null). */
  private length(n: number | null, classicWidth: 2 | 4): this {
    if (this.flexible) return this.uvarint(n === null ? 0 : n + 1);
    const v = n === null ? -1 : n;
    return classicWidth === 2 ? this.int16(v) : this.int32(v);
  }

  nullableString(v: string | null): this {
    if (v === null) return this.length(null, 2);
    const b = Buffer.from(v, "utf8");
    return this.length(b.length, 2).push(b);
  }
  string(v: string): this {
    return this.nullableString(v);
  }

  nullableBytes(v: Buffer | null): this {
    if (v === null) return this.length(null, 4);
    return this.length(v.length, 4).push(v);
  }
  bytes(v: Buffer): this {
    return this.nullableBytes(v);
  }

  nullableArray<T>(items: readonly T[] | null, each: (enc: this, item: T) => void): this {
    if (items === null) return this.length(null, 4);
    this.length(items.length, 4);
    for (const item of items) each(this, item);
    return this;
  }
  array<T>(items: readonly T[], each: (enc: this, item: T) => void): this {
    return this.nullableArray(items, each);
  }

  /** An empty tagged-field section (flexible versions only; a no-op otherwise). */
  tags(): this {
    return this.flexible ? this.uvarint(0) : this;
  }

  toBuffer(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

export class Decoder {
  private offset = 0;

  constructor(
    private readonly buf: Buffer,
    readonly flexible = false,
  ) {}

  get remaining(): number {
    return this.buf.length - this.offset;
  }

  private take(n: number): number {
    if (n < 0 || this.offset + n > this.buf.length)
      throw new WireDecodeError(`need ${n} bytes at offset ${this.offset}, buffer has ${this.buf.length}`);
    const at = this.offset;
    this.offset += n;
    return at;
  }

  int8(): number {
    return this.buf.readInt8(this.take(1));
  }
  int16(): number {
    return this.buf.readInt16BE(this.take(2));
  }
  int32(): number {
    return this.buf.readInt32BE(this.take(4));
  }
  int64(): bigint {
    return this.buf.readBigInt64BE(this.take(8));
  }
  bool(): boolean {
    return this.int8() !== 0;
  }
  uuid(): string | null {
    const at = this.take(UUID_BYTES);
    return uuidToString(this.buf.subarray(at, at + UUID_BYTES));
  }
  raw(n: number): Buffer {
    const at = this.take(n);
    return this.buf.subarray(at, at + n);
  }

  uvarint(): number {
    let value = 0;
    let factor = 1;
    for (let i = 0; i < 5; i++) {
      const byte = this.buf.readUInt8(this.take(1));
      value += (byte & 0x7f) * factor;
      if ((byte & 0x80) === 0) {
        if (value > 0xffffffff) throw new WireDecodeError(`uvarint overflow at offset ${this.offset}`);
        return value;
      }
      factor *= 0x80;
    }
    throw new WireDecodeError(`uvarint longer than 5 bytes at offset ${this.offset}`);
  }

  varint(): number {
    const z = this.uvarint();
    return z % 2 === 0 ? z / 2 : -(z + 1) / 2;
  }

  /** Decoded length, null for a null value. */
  private length(classicWidth: 2 | 4): number | null {
    if (this.flexible) {
      const n = this.uvarint();
      return n === 0 ? null : n - 1;
    }
    const n = classicWidth === 2 ? this.int16() : this.int32();
    if (n < -1) throw new WireDecodeError(`negative length ${n} at offset ${this.offset}`);
    return n === -1 ? null : n;
  }

  nullableString(): string | null {
    const n = this.length(2);
    return n === null ? null : this.raw(n).toString("utf8");
  }
  string(): string {
    const v = this.nullableString();
    if (v === null) throw new WireDecodeError(`unexpected null string at offset ${this.offset}`);
    return v;
  }

  nullableBytes(): Buffer | null {
    const n = this.length(4);
    return n === null ? null : Buffer.from(this.raw(n));
  }
  bytes(): Buffer {
    return this.nullableBytes() ?? Buffer.alloc(0);
  }

  nullableArray<T>(each: (dec: this) => T): T[] | null {
    const n = this.length(4);
    if (n === null) return null;
    // Every element takes at least one byte: a corrupt length must not allocate gigabytes.
    if (n > this.remaining)
      throw new WireDecodeError(`array length ${n} exceeds remaining ${this.remaining} bytes`);
    const out: T[] = [];
    for (let i = 0; i < n; i++) out.push(each(this));
    return out;
  }
  array<T>(each: (dec: this) => T): T[] {
    return this.nullableArray(each) ?? [];
  }

  /** Skips a tagged-field section (flexible versions only): none of our fields are tagged. */
  tags(): this {
    if (!this.flexible) return this;
    const count = this.uvarint();
    for (let i = 0; i < count; i++) {
      this.uvarint(); // tag
      this.raw(this.uvarint());
    }
    return this;
  }
}
