import type { PrismaClient } from "../db/client";
import { loadTimelineStates, writeTimeline, type TimelineWrite } from "../db/queries/timeline";
import { observeGroup, type GroupTimelineState, type TimelineConfig } from "../domain/timeline";
import type { SnapshotResult } from "../kafka/snapshot";

// Feeds each cycle's snapshot to the timeline core, group by group, and stores what comes out.
// States live in memory between cycles and in the database for restarts: the first cycle after
// a restart continues from the stored states (no burst of "member joined").

const PERSIST_EVERY_MS = 30_000;

export class TimelineTracker {
  private states: Map<string, GroupTimelineState> | null = null;
  private prevAt: number | null = null;
  private readonly persistedAt = new Map<string, number>();

  constructor(
    private readonly db: PrismaClient,
    private readonly clusterId: string,
  ) {}

  /** When the group's current state began, as the timeline knows it; null when unknown. */
  stateSince(groupId: string): number | null {
    return this.states?.get(groupId)?.stateSince ?? null;
  }

  async apply({ snapshot, listingComplete }: SnapshotResult, cfg: TimelineConfig): Promise<TimelineWrite> {
    if (!this.states) {
      this.states = await loadTimelineStates(this.db, this.clusterId);
      const seen = [...this.states.values()].map((s) => s.lastSeenAt);
      this.prevAt = seen.length > 0 ? Math.max(...seen) : null;
    }
    const states = this.states;
    const at = snapshot.poll.startedAt.getTime();
    const counts = new Map(snapshot.topics.map((t) => [t.name, t.partitions.length]));
    const write: TimelineWrite = {
      events: [],
      episodes: [],
      sessions: [],
      intervals: [],
      amendments: [],
      states: new Map(),
      at,
    };
    const next = new Map(states);

    const step = (
      groupId: string,
      prev: GroupTimelineState | null,
      group: (typeof snapshot.groups)[number] | null,
    ) => {
      const r = observeGroup(prev, { at, prevAt: this.prevAt, group, topicPartitionCounts: counts }, cfg);
      write.events.push(...r.events);
      write.episodes.push(...r.episodes);
      write.sessions.push(...r.sessions);
      write.intervals.push(...r.intervals);
      write.amendments.push(...r.amendments);
      const changed = r.events.length + r.episodes.length + r.sessions.length + r.intervals.length > 0;
      if (r.state === null) {
        next.delete(groupId);
        if (prev) write.states.set(groupId, null);
      } else {
        next.set(groupId, r.state);
        if (changed || at - (this.persistedAt.get(groupId) ?? 0) >= PERSIST_EVERY_MS)
          write.states.set(groupId, r.state);
      }
    };

    const present = new Set<string>();
    for (const g of snapshot.groups) {
      present.add(g.groupId);
      // A group this cycle could not describe would look as if every member had left: skip it.
      if (g.errors.some((e) => /not described|DescribeGroups|ConsumerGroupDescribe/.test(e))) continue;
      step(g.groupId, states.get(g.groupId) ?? null, g);
    }
    if (listingComplete) {
      for (const [groupId, prev] of states) if (!present.has(groupId)) step(groupId, prev, null);
    }

    try {
      await writeTimeline(this.db, this.clusterId, write);
    } catch (e) {
      // Reload from the database next cycle: the changes are derived again, not lost.
      this.states = null;
      throw e;
    }
    for (const [groupId, s] of write.states) {
      if (s === null) this.persistedAt.delete(groupId);
      else this.persistedAt.set(groupId, at);
    }
    this.states = next;
    this.prevAt = at;
    return write;
  }
}
