import { Decoder, type Encoder, WireDecodeError } from "./codec";
import { errorName } from "./errors";

// The APIs this layer speaks and the version ranges it implements. Schemas were taken from
// kafka-clients' generated *Data classes (4.4.0 and 3.9.2) / common/message/*.json; the highest
// version implemented is capped where a newer one changes the schema in a way we do not need
// (OffsetFetch v10 switches to topic ids).

export interface VersionRange {
  min: number;
  max: number;
}

export interface ApiSpec extends VersionRange {
  key: number;
  name: string;
  /** First flexible (compact + tagged fields) version. */
  flexibleFrom: number;
}

export const API = {
  ListOffsets: { key: 2, name: "ListOffsets", min: 1, max: 11, flexibleFrom: 6 },
  Metadata: { key: 3, name: "Metadata", min: 1, max: 13, flexibleFrom: 9 },
  OffsetFetch: { key: 9, name: "OffsetFetch", min: 2, max: 9, flexibleFrom: 6 },
  FindCoordinator: { key: 10, name: "FindCoordinator", min: 1, max: 6, flexibleFrom: 3 },
  DescribeGroups: { key: 15, name: "DescribeGroups", min: 0, max: 6, flexibleFrom: 5 },
  ListGroups: { key: 16, name: "ListGroups", min: 0, max: 5, flexibleFrom: 3 },
  ConsumerGroupDescribe: { key: 69, name: "ConsumerGroupDescribe", min: 0, max: 1, flexibleFrom: 0 },
} as const satisfies Record<string, ApiSpec>;

/** One request/response exchange, encoded and decoded by us at a chosen version. */
export interface WireCall<T> {
  apiKey: number;
  apiName: string;
  version: number;
  flexible: boolean;
  encode: (enc: Encoder) => void;
  decode: (dec: Decoder) => T;
}

/** A failure of a whole call (not of one group or partition, which are values in results). */
export class KafkaWireError extends Error {
  override name = "KafkaWireError";
  constructor(
    message: string,
    readonly errorCode: number | null = null,
  ) {
    super(errorCode === null ? message : `${message}: ${errorName(errorCode)}`);
  }
}

/** Highest version both sides support, or null. */
export function pickVersion(ours: VersionRange, theirs: VersionRange | null): number | null {
  if (!theirs) return null;
  const v = Math.min(ours.max, theirs.max);
  return v >= Math.max(ours.min, theirs.min) ? v : null;
}

export function call<T>(
  api: ApiSpec,
  version: number,
  encode: (enc: Encoder) => void,
  decode: (dec: Decoder) => T,
): WireCall<T> {
  return {
    apiKey: api.key,
    apiName: api.name,
    version,
    flexible: version >= api.flexibleFrom,
    encode,
    decode,
  };
}

/** Decodes a response body (what follows the correlation id) with the call's schema. */
export function decodeResponse<T>(
  body: Buffer,
  c: Pick<WireCall<T>, "flexible" | "decode" | "apiName" | "version">,
): T {
  const dec = new Decoder(body, c.flexible);
  // Flexible response header v1 carries a tagged-field section after the correlation id.
  dec.tags();
  const result = c.decode(dec);
  if (dec.remaining !== 0)
    throw new WireDecodeError(`${c.apiName} v${c.version}: ${dec.remaining} bytes left after decoding`);
  return result;
}
