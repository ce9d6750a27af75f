// Which lag observations are worth a row: change-only storage. A group's lag history gets a row
// when its offsets moved (a commit, a produce), when its lag in seconds drifted noticeably
// (a stuck consumer on an idle topic: offsets stand still while the lag in seconds grows), or
// when the last row is older than the heartbeat (so a reader can tell "unchanged" from "not
// watched"). Pure.

import type { GroupLag } from "./snapshot";

export const HEARTBEAT_MS = 5 * 60_000;

export interface LastWritten {
  at: number;
  signature: string;
  lagSeconds: number | null;
}

/** Everything that changes the lag in offsets: committed and log end offsets per partition. */
export function lagSignature(lag: GroupLag): string {
  return lag.partitions
    .map((p) => `${p.topic}:${p.partition}=${p.committedOffset ?? "-"}/${p.logEndOffset ?? "-"}`)
    .join(",");
}

export function shouldWriteSample(
  last: LastWritten | null,
  next: { at: number; signature: string; lagSeconds: number | null },
  heartbeatMs = HEARTBEAT_MS,
): boolean {
  if (!last) return true;
  if (next.signature !== last.signature) return true;
  if (next.at - last.at >= heartbeatMs) return true;
  const a = last.lagSeconds;
  const b = next.lagSeconds;
  if ((a === null) !== (b === null)) return true;
  if (a === null || b === null) return false;
  return Math.abs(b - a) >= Math.max(1, 0.1 * Math.max(a, b));
}
