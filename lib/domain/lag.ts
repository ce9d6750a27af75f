// Offset lag per partition and per group. Pure and BigInt-exact.
//   lag = logEndOffset - committedOffset, floored at 0 (a commit can be ahead of a stale
//   log-end offset read a moment earlier); unknown (null) when there is no commit or no
//   log-end offset: "no commit" is never reported as zero lag.

import type { CommittedOffset, GroupLag, PartitionLag } from "./snapshot";
import type { TopicPartitions } from "./types";

export type LogEndOffsets = ReadonlyMap<string, bigint | null>;

export const tpKey = (topic: string, partition: number) => `${topic}\u0000${partition}`;

export function partitionLag(committed: bigint | null, logEnd: bigint | null): bigint | null {
  if (committed === null || logEnd === null) return null;
  const lag = logEnd - committed;
  return lag > 0n ? lag : 0n;
}

/**
 * Lag of a group over the partitions it has committed offsets for, plus partitions assigned
 * to its members without a commit (reported with unknown lag).
 */
export function groupLag(
  offsets: readonly CommittedOffset[],
  assigned: readonly TopicPartitions[],
  logEnd: LogEndOffsets,
): GroupLag {
  const rows = new Map<string, PartitionLag>();
  for (const o of offsets) {
    const end = logEnd.get(tpKey(o.topic, o.partition)) ?? null;
    rows.set(tpKey(o.topic, o.partition), {
      topic: o.topic,
      partition: o.partition,
      committedOffset: o.offset,
      logEndOffset: end,
      lag: partitionLag(o.offset, end),
    });
  }
  for (const tp of assigned) {
    for (const p of tp.partitions) {
      const key = tpKey(tp.topic, p);
      if (rows.has(key)) continue;
      rows.set(key, {
        topic: tp.topic,
        partition: p,
        committedOffset: null,
        logEndOffset: logEnd.get(key) ?? null,
        lag: null,
      });
    }
  }
  const partitions = [...rows.values()].sort((a, b) =>
    a.topic === b.topic ? a.partition - b.partition : a.topic < b.topic ? -1 : 1,
  );
  let total = 0n;
  let max: bigint | null = null;
  let unknown = 0;
  for (const p of partitions) {
    if (p.lag === null) {
      unknown++;
      continue;
    }
    total += p.lag;
    if (max === null || p.lag > max) max = p.lag;
  }
  return { total, max, unknownPartitions: unknown, partitions };
}
