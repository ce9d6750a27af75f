// Group timelines and rebalance forensics: the pure core.
//
// From the previous state of a group (what earlier snapshots taught us) and the current
// observation, derive state intervals, events, rebalance episodes with causes, and member
// sessions. Nothing here does I/O; time is passed in (epoch ms). Offsets travel as decimal
// strings so the state stays JSON-serializable; comparisons use BigInt.

import type { GroupSnapshot, MemberSnapshot } from "./snapshot";
import type { TopicPartitions } from "./types";

export interface TimelineConfig {
  /** Poll interval of the cluster: the resolution of every time we infer. */
  pollIntervalMs: number;
  /** Consumer session timeout in effect (Kafka default 45 s). */
  sessionTimeoutMs: number;
  /** Consumer max.poll.interval.ms in effect (Kafka default 300 s). */
  maxPollIntervalMs: number;
  /** How often a healthy consumer commits (Java auto-commit default 5 s). */
  commitIntervalMs: number;
}

export const DEFAULT_TIMELINE_CONFIG: Omit<TimelineConfig, "pollIntervalMs"> = {
  sessionTimeoutMs: 45_000,
  maxPollIntervalMs: 300_000,
  commitIntervalMs: 5_000,
};

export const REBALANCING_STATES = new Set([
  "PreparingRebalance",
  "CompletingRebalance",
  "Assigning",
  "Reconciling",
]);

export type CauseKind =
  | "member-joined"
  | "member-left"
  | "member-crashed"
  | "poll-timeout"
  | "partition-count-changed"
  | "subscription-changed"
  | "static-member-restarted"
  | "unknown";

export type Confidence = "high" | "medium" | "low";

export interface Cause {
  kind: CauseKind;
  memberId?: string;
  clientId?: string;
  clientHost?: string;
  groupInstanceId?: string | null;
  topic?: string;
  confidence: Confidence;
  evidence: string[];
}

export interface MovedPartition {
  topic: string;
  partition: number;
  from: string | null;
  to: string | null;
}

export interface Episode {
  /** Idempotent key: group + first observation time of the episode. */
  key: string;
  groupId: string;
  /** Lower bound: the poll before the first sign of the rebalance. */
  startedAfter: number;
  /** First observation showing the rebalance (in progress or done). */
  detectedAt: number;
  /** First observation after it (Stable/Empty again); null while open. */
  endedBy: number | null;
  observedInProgress: boolean;
  /** False for a static member restart that replaced a member without a rebalance. */
  rebalance: boolean;
  membersBefore: string[];
  membersAfter: string[];
  partitionsMoved: MovedPartition[];
  epochBefore: number | null;
  epochAfter: number | null;
  causes: Cause[];
}

export type EventKind =
  | "group-appeared"
  | "group-deleted"
  | "state-changed"
  | "member-joined"
  | "member-left"
  | "member-replaced"
  | "assignment-changed"
  | "subscription-changed"
  | "partition-count-changed"
  | "offsets-rewound"
  | "epoch-advanced";

export interface TimelineEvent {
  key: string;
  groupId: string;
  at: number;
  kind: EventKind;
  memberId: string | null;
  details: Record<string, unknown>;
}

export interface MemberSession {
  key: string;
  groupId: string;
  memberId: string;
  groupInstanceId: string | null;
  clientId: string;
  clientHost: string;
  /** First observation of the member; joinedObserved false when it was there when we started. */
  joinedAt: number;
  joinedObserved: boolean;
  leftAt: number | null;
  /** How it left (a cause kind), null while present. */
  leftHow: CauseKind | "group-deleted" | null;
  assignment: TopicPartitions[];
}

export interface StateInterval {
  key: string;
  groupId: string;
  state: string;
  from: number;
  /** The poll before `from`: the change happened in (fromAfter, from]. */
  fromAfter: number | null;
  to: number | null;
}

interface PartitionProgress {
  committed: string | null;
  logEnd: string | null;
  /** When the committed offset was last seen to move forward (or first seen). */
  advancedAt: number;
}

interface Departure {
  member: MemberSnapshot;
  leftAt: number;
  episodeKey: string;
  stallMs: number | null;
  backlog: boolean;
}

/** Everything remembered about a group between observations (persisted, JSON-safe). */
export interface GroupTimelineState {
  groupId: string;
  type: string;
  state: string;
  stateSince: number;
  lastSeenAt: number;
  groupEpoch: number | null;
  members: MemberSnapshot[];
  sessions: MemberSession[];
  progress: Record<string, PartitionProgress>;
  /** Partition counts of topics the group subscribes to or holds. */
  topicPartitions: Record<string, number>;
  openEpisode: Episode | null;
  interval: StateInterval;
  /** Members that left recently, kept to recognise a rejoin after a poll timeout. */
  departures: Departure[];
}

export interface Observation {
  at: number;
  /** Time of the previous observation of the cluster (null on the first). */
  prevAt: number | null;
  /** The group as seen now; null when a complete listing no longer has it. */
  group: GroupSnapshot | null;
  /** Partition count per topic, from the same snapshot. */
  topicPartitionCounts: ReadonlyMap<string, number>;
}

export interface StepResult {
  state: GroupTimelineState | null;
  events: TimelineEvent[];
  /** Episodes opened, updated or closed by this step (upserted by key). */
  episodes: Episode[];
  /** Sessions opened or closed by this step (upserted by key). */
  sessions: MemberSession[];
  /** Intervals opened or closed by this step (upserted by key). */
  intervals: StateInterval[];
  /** Causes of earlier (closed) episodes that this step explains better: a rejoin after a
   *  stall turns that departure into a poll timeout. */
  amendments: CauseAmendment[];
}

export interface CauseAmendment {
  episodeKey: string;
  memberId: string;
  kind: CauseKind;
  confidence: Confidence;
  evidence: string;
}

// Topic names never hold ":" (Kafka allows [a-zA-Z0-9._-]); keys end up in JSON in Postgres.
const tp = (topic: string, partition: number) => `${topic}:${partition}`;
const splitTp = (key: string): [string, number] => {
  const i = key.lastIndexOf(":");
  return [key.slice(0, i), Number(key.slice(i + 1))];
};
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

function owners(members: readonly MemberSnapshot[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of members)
    for (const a of m.assignment) for (const p of a.partitions) out.set(tp(a.topic, p), m.memberId);
  return out;
}

function relevantTopics(group: GroupSnapshot): Set<string> {
  const topics = new Set<string>();
  for (const m of group.members) {
    m.subscribedTopics.forEach((t) => topics.add(t));
    m.assignment.forEach((a) => topics.add(a.topic));
  }
  group.offsets.forEach((o) => topics.add(o.topic));
  return topics;
}

function progressOf(
  prev: Record<string, PartitionProgress>,
  group: GroupSnapshot,
  at: number,
): {
  progress: Record<string, PartitionProgress>;
  rewound: { topic: string; partition: number; from: string; to: string }[];
} {
  const progress: Record<string, PartitionProgress> = {};
  const rewound: { topic: string; partition: number; from: string; to: string }[] = [];
  for (const p of group.lag.partitions) {
    const key = tp(p.topic, p.partition);
    const before = prev[key];
    const committed = p.committedOffset === null ? null : p.committedOffset.toString();
    const logEnd = p.logEndOffset === null ? null : p.logEndOffset.toString();
    let advancedAt = before?.advancedAt ?? at;
    if (before && committed !== null) {
      if (before.committed === null || BigInt(committed) > BigInt(before.committed)) advancedAt = at;
      else if (BigInt(committed) < BigInt(before.committed)) {
        advancedAt = at;
        rewound.push({ topic: p.topic, partition: p.partition, from: before.committed, to: committed });
      }
    }
    progress[key] = { committed, logEnd, advancedAt };
  }
  return { progress, rewound };
}

/**
 * Why did a member leave? Decided from how long its partitions' commits had stopped before it
 * vanished (the stall) and whether records were waiting meanwhile (the backlog). The stall is
 * known to within a poll interval and a commit interval, so each hypothesis is an interval:
 *   clean leave   stall in [0, commit + poll]
 *   crash         stall in [session - commit - poll, session + commit + 2 poll]
 *   poll timeout  stall in [maxPoll - commit - poll, maxPoll + commit + 2 poll], and the same
 *                 client (id + host) rejoins under a new member id
 * When no record was waiting, a crash and a clean leave leave the same trace: unknown.
 */
export function classifyDeparture(
  d: { stallMs: number | null; backlog: boolean; rejoined: boolean; heldPartitions: number },
  cfg: TimelineConfig,
): { kind: CauseKind; confidence: Confidence; reason: string } {
  if (d.heldPartitions === 0) {
    return {
      kind: "unknown",
      confidence: "low",
      reason: "it held no partitions, so its commits tell nothing",
    };
  }
  if (d.stallMs === null) {
    return { kind: "unknown", confidence: "low", reason: "its commits were never observed" };
  }
  const slack = cfg.commitIntervalMs + cfg.pollIntervalMs;
  const s = d.stallMs;
  const within = (center: number) => s >= center - slack && s <= center + slack + cfg.pollIntervalMs;
  const leave = s <= slack;
  if (!d.backlog) {
    // Nothing waiting: commits that moved until just now still show a live consumer; commits
    // that stopped long ago on an idle partition prove nothing.
    if (leave && !within(cfg.sessionTimeoutMs))
      return { kind: "member-left", confidence: "high", reason: "" };
    return {
      kind: "unknown",
      confidence: "low",
      reason: "no records were waiting on its partitions, so a crash and a clean leave look alike",
    };
  }
  const crash = within(cfg.sessionTimeoutMs);
  const pollTimeout = within(cfg.maxPollIntervalMs) && d.rejoined;
  const candidates = [
    leave ? ("member-left" as const) : null,
    crash ? ("member-crashed" as const) : null,
    pollTimeout ? ("poll-timeout" as const) : null,
  ].filter((x) => x !== null);
  if (candidates.length === 1) {
    const kind = candidates[0]!;
    return { kind, confidence: "high", reason: "" };
  }
  if (candidates.length === 0) {
    // Stalled longer than any timeout explains: a stuck consumer that finally left or died.
    if (d.rejoined && s >= cfg.maxPollIntervalMs - slack)
      return { kind: "poll-timeout", confidence: "medium", reason: "" };
    if (s > cfg.sessionTimeoutMs) return { kind: "member-crashed", confidence: "medium", reason: "" };
    return {
      kind: "unknown",
      confidence: "low",
      reason: `its commits stopped ${seconds(s)} before it left, which matches neither a clean leave nor a session timeout (${seconds(cfg.sessionTimeoutMs)})`,
    };
  }
  // Timeouts too close to tell apart at this poll resolution. A rejoin of the same client does
  // not settle it: a supervisor restarting a crashed consumer rejoins with the same client id.
  return {
    kind: "unknown",
    confidence: "low",
    reason: `a stall of ${seconds(s)} fits ${candidates.join(" and ")} at this poll interval (${seconds(cfg.pollIntervalMs)})`,
  };
}

function memberLabel(m: MemberSnapshot): string {
  return `${m.memberId} (client ${m.clientId}, host ${m.clientHost}${m.groupInstanceId ? `, instance ${m.groupInstanceId}` : ""})`;
}

function newSession(groupId: string, m: MemberSnapshot, at: number, observed: boolean): MemberSession {
  return {
    key: `${groupId}|${m.memberId}`,
    groupId,
    memberId: m.memberId,
    groupInstanceId: m.groupInstanceId,
    clientId: m.clientId,
    clientHost: m.clientHost,
    joinedAt: at,
    joinedObserved: observed,
    leftAt: null,
    leftHow: null,
    assignment: m.assignment,
  };
}

function interval(groupId: string, state: string, from: number, fromAfter: number | null): StateInterval {
  return { key: `${groupId}|${from}`, groupId, state, from, fromAfter, to: null };
}

/** The first observation of a group: everything it has is a starting point, not a change. */
function firstObservation(obs: Observation, group: GroupSnapshot, appeared: boolean): StepResult {
  const { at } = obs;
  const iv = interval(group.groupId, group.state, at, obs.prevAt);
  const sessions = group.members.map((m) => newSession(group.groupId, m, at, appeared));
  const topicPartitions: Record<string, number> = {};
  for (const t of relevantTopics(group)) {
    const n = obs.topicPartitionCounts.get(t);
    if (n !== undefined) topicPartitions[t] = n;
  }
  const state: GroupTimelineState = {
    groupId: group.groupId,
    type: group.type,
    state: group.state,
    stateSince: at,
    lastSeenAt: at,
    groupEpoch: group.groupEpoch,
    members: group.members,
    sessions,
    progress: progressOf({}, group, at).progress,
    topicPartitions,
    openEpisode: null,
    interval: iv,
    departures: [],
  };
  const events: TimelineEvent[] = appeared
    ? [
        {
          key: `${group.groupId}|${at}|group-appeared`,
          groupId: group.groupId,
          at,
          kind: "group-appeared",
          memberId: null,
          details: { state: group.state, type: group.type, members: group.members.length },
        },
      ]
    : [];
  return { state, events, episodes: [], sessions, intervals: [iv], amendments: [] };
}

/**
 * One step of a group's timeline. `prev` null means the group was never seen before; whether it
 * "appeared" (versus was already there when watching started) is `obs.prevAt !== null`.
 */
export function observeGroup(
  prev: GroupTimelineState | null,
  obs: Observation,
  cfg: TimelineConfig,
): StepResult {
  const { at, group } = obs;
  if (!prev) {
    if (!group) return { state: null, events: [], episodes: [], sessions: [], intervals: [], amendments: [] };
    return firstObservation(obs, group, obs.prevAt !== null);
  }
  const groupId = prev.groupId;
  const prevAt = obs.prevAt ?? prev.lastSeenAt;

  if (!group) {
    // Gone from a complete listing: deleted (or expired). Close everything that was open.
    const sessions = prev.sessions.map((s) => ({ ...s, leftAt: at, leftHow: "group-deleted" as const }));
    const iv = { ...prev.interval, to: at };
    const episodes = prev.openEpisode ? [{ ...prev.openEpisode, endedBy: at }] : [];
    return {
      state: null,
      events: [
        {
          key: `${groupId}|${at}|group-deleted`,
          groupId,
          at,
          kind: "group-deleted",
          memberId: null,
          details: { lastState: prev.state },
        },
      ],
      episodes,
      sessions,
      intervals: [iv],
      amendments: [],
    };
  }

  const events: TimelineEvent[] = [];
  const event = (kind: EventKind, memberId: string | null, details: Record<string, unknown>, suffix = "") =>
    events.push({
      key: `${groupId}|${at}|${kind}|${memberId ?? ""}${suffix}`,
      groupId,
      at,
      kind,
      memberId,
      details,
    });

  // --- state
  const intervals: StateInterval[] = [];
  let iv = prev.interval;
  if (group.state !== prev.state) {
    event("state-changed", null, { from: prev.state, to: group.state });
    intervals.push({ ...prev.interval, to: at });
    iv = interval(groupId, group.state, at, prevAt);
    intervals.push(iv);
  }

  // --- membership
  const prevById = new Map(prev.members.map((m) => [m.memberId, m]));
  const nowById = new Map(group.members.map((m) => [m.memberId, m]));
  let joined = group.members.filter((m) => !prevById.has(m.memberId));
  let left = prev.members.filter((m) => !nowById.has(m.memberId));
  const replaced: { from: MemberSnapshot; to: MemberSnapshot }[] = [];
  for (const j of joined) {
    if (!j.groupInstanceId) continue;
    const l = left.find((x) => x.groupInstanceId === j.groupInstanceId);
    if (l) replaced.push({ from: l, to: j });
  }
  joined = joined.filter((j) => !replaced.some((r) => r.to === j));
  left = left.filter((l) => !replaced.some((r) => r.from === l));

  // --- progress of commits (for cause inference) and rewinds
  const { progress, rewound } = progressOf(prev.progress, group, at);
  for (const r of rewound) event("offsets-rewound", null, r, `|${r.topic}|${r.partition}`);

  // --- subscriptions and partition counts
  const subscriptionChanges: { member: MemberSnapshot; before: string[] }[] = [];
  for (const m of group.members) {
    const before = prevById.get(m.memberId);
    if (
      before &&
      !sameList(before.subscribedTopics, m.subscribedTopics) &&
      m.subscribedTopics.length > 0 &&
      before.subscribedTopics.length > 0
    ) {
      subscriptionChanges.push({ member: m, before: before.subscribedTopics });
      event("subscription-changed", m.memberId, {
        before: before.subscribedTopics,
        after: m.subscribedTopics,
      });
    }
  }
  const topicPartitions: Record<string, number> = {};
  const countChanges: { topic: string; from: number; to: number }[] = [];
  for (const t of relevantTopics(group)) {
    const n = obs.topicPartitionCounts.get(t);
    if (n === undefined) continue;
    topicPartitions[t] = n;
    const before = prev.topicPartitions[t];
    if (before !== undefined && before !== n) {
      countChanges.push({ topic: t, from: before, to: n });
      event("partition-count-changed", null, { topic: t, from: before, to: n }, `|${t}`);
    }
  }

  // --- assignment (static replacements carry their partitions over to the new member id)
  const renamed = new Map(replaced.map((r) => [r.from.memberId, r.to.memberId]));
  const ownersBefore = owners(prev.members);
  const ownersNow = owners(group.members);
  const moved: MovedPartition[] = [];
  for (const key of new Set([...ownersBefore.keys(), ...ownersNow.keys()])) {
    const fromRaw = ownersBefore.get(key) ?? null;
    const from = fromRaw === null ? null : (renamed.get(fromRaw) ?? fromRaw);
    const to = ownersNow.get(key) ?? null;
    if (from === to) continue;
    // During a rebalance members hold nothing for a moment; an empty-handed member is not a move.
    if (to === null && REBALANCING_STATES.has(group.state)) continue;
    const [topic, partition] = splitTp(key);
    moved.push({ topic, partition, from: fromRaw, to });
  }
  moved.sort((a, b) => (a.topic === b.topic ? a.partition - b.partition : a.topic < b.topic ? -1 : 1));
  if (moved.length > 0)
    event("assignment-changed", null, { moved: moved.length, partitions: moved.slice(0, 200) });

  // --- epochs (KIP-848)
  const epochAdvanced =
    group.groupEpoch !== null && prev.groupEpoch !== null && group.groupEpoch > prev.groupEpoch;
  if (epochAdvanced) event("epoch-advanced", null, { from: prev.groupEpoch, to: group.groupEpoch });

  // --- sessions and member events
  const sessions: MemberSession[] = [];
  const sessionByMember = new Map(prev.sessions.map((s) => [s.memberId, s]));
  const causes: Cause[] = [];
  const departures: Departure[] = prev.departures.filter(
    (d) => at - d.leftAt <= cfg.maxPollIntervalMs + cfg.sessionTimeoutMs,
  );
  const amendments: CauseAmendment[] = [];
  const episodeKey = prev.openEpisode?.key ?? `${groupId}|${at}`;

  for (const r of replaced) {
    event("member-replaced", r.to.memberId, {
      previousMemberId: r.from.memberId,
      groupInstanceId: r.to.groupInstanceId,
    });
    const old = sessionByMember.get(r.from.memberId);
    if (old) sessions.push({ ...old, leftAt: at, leftHow: "static-member-restarted" });
    sessions.push(newSession(groupId, r.to, at, true));
    causes.push({
      kind: "static-member-restarted",
      memberId: r.to.memberId,
      clientId: r.to.clientId,
      clientHost: r.to.clientHost,
      groupInstanceId: r.to.groupInstanceId,
      confidence: "high",
      evidence: [
        `static member ${r.to.groupInstanceId} came back as ${r.to.memberId}, replacing ${r.from.memberId}`,
      ],
    });
  }

  for (const m of left) {
    const held = m.assignment.flatMap((a) => a.partitions.map((p) => tp(a.topic, p)));
    const lastAdvance =
      held.length === 0 ? null : Math.max(...held.map((k) => prev.progress[k]?.advancedAt ?? prevAt));
    const backlog = held.some((k) => {
      const p = prev.progress[k];
      return p?.committed != null && p.logEnd != null && BigInt(p.logEnd) > BigInt(p.committed);
    });
    // The member vanished somewhere in (prevAt, at]; measure to the middle of that window.
    const stallMs = lastAdvance === null ? null : Math.max(0, (prevAt + at) / 2 - lastAdvance);
    const rejoinedBy = joined.find((j) => j.clientId === m.clientId && j.clientHost === m.clientHost);
    const verdict = classifyDeparture(
      { stallMs, backlog, rejoined: rejoinedBy !== undefined, heldPartitions: held.length },
      cfg,
    );
    const evidence = [`member ${memberLabel(m)} is gone`];
    if (stallMs !== null && held.length > 0) {
      evidence.push(
        `commits on its ${held.length} partition(s) last advanced ${seconds(stallMs)} before it left (session timeout ${seconds(cfg.sessionTimeoutMs)}, max.poll.interval ${seconds(cfg.maxPollIntervalMs)})`,
      );
      evidence.push(
        backlog
          ? "records were waiting on its partitions (lag > 0)"
          : "its partitions had no waiting records",
      );
    }
    if (rejoinedBy) evidence.push(`the same client rejoined as ${rejoinedBy.memberId}`);
    if (verdict.reason) evidence.push(`cause undetermined: ${verdict.reason}`);
    causes.push({
      kind: verdict.kind,
      memberId: m.memberId,
      clientId: m.clientId,
      clientHost: m.clientHost,
      groupInstanceId: m.groupInstanceId,
      confidence: verdict.confidence,
      evidence,
    });
    event("member-left", m.memberId, {
      clientId: m.clientId,
      clientHost: m.clientHost,
      cause: verdict.kind,
      stallMs,
      backlog,
    });
    const s = sessionByMember.get(m.memberId);
    if (s)
      sessions.push({ ...s, leftAt: at, leftHow: verdict.kind === "unknown" ? "unknown" : verdict.kind });
    departures.push({ member: m, leftAt: at, episodeKey, stallMs, backlog });
  }

  for (const m of joined) {
    event("member-joined", m.memberId, {
      clientId: m.clientId,
      clientHost: m.clientHost,
      groupInstanceId: m.groupInstanceId,
    });
    sessions.push(newSession(groupId, m, at, true));
    const evidence = [`new member ${memberLabel(m)}`];
    // A rejoin of a client that left in an earlier step after stalling: a poll timeout.
    const earlier = departures.find(
      (d) => d.leftAt < at && d.member.clientId === m.clientId && d.member.clientHost === m.clientHost,
    );
    if (earlier) {
      evidence.push(
        `the same client left as ${earlier.member.memberId} ${seconds(at - earlier.leftAt)} earlier`,
      );
      const verdict = classifyDeparture(
        {
          stallMs: earlier.stallMs,
          backlog: earlier.backlog,
          rejoined: true,
          heldPartitions: earlier.member.assignment.length,
        },
        cfg,
      );
      if (verdict.kind === "poll-timeout") {
        amendments.push({
          episodeKey: earlier.episodeKey,
          memberId: earlier.member.memberId,
          kind: "poll-timeout",
          confidence: verdict.confidence,
          evidence: `the same client (${m.clientId}, ${m.clientHost}) rejoined as ${m.memberId} ${seconds(at - earlier.leftAt)} after leaving`,
        });
      }
    }
    causes.push({
      kind: "member-joined",
      memberId: m.memberId,
      clientId: m.clientId,
      clientHost: m.clientHost,
      groupInstanceId: m.groupInstanceId,
      confidence: "high",
      evidence,
    });
  }
  for (const c of subscriptionChanges) {
    causes.push({
      kind: "subscription-changed",
      memberId: c.member.memberId,
      clientId: c.member.clientId,
      confidence: "high",
      evidence: [
        `member ${c.member.memberId} subscribed to [${c.member.subscribedTopics.join(", ")}] instead of [${c.before.join(", ")}]`,
      ],
    });
  }
  for (const c of countChanges) {
    causes.push({
      kind: "partition-count-changed",
      topic: c.topic,
      confidence: "high",
      evidence: [`topic ${c.topic} went from ${c.from} to ${c.to} partitions`],
    });
  }
  // Sessions carry the latest assignment of members that stayed.
  for (const m of group.members) {
    const s = sessionByMember.get(m.memberId);
    const before = prevById.get(m.memberId);
    if (s && before && JSON.stringify(before.assignment) !== JSON.stringify(m.assignment))
      sessions.push({ ...s, assignment: m.assignment });
  }

  // --- episodes
  const rebalancing = REBALANCING_STATES.has(group.state);
  const membershipChanged = joined.length > 0 || left.length > 0;
  const changed =
    membershipChanged ||
    moved.length > 0 ||
    epochAdvanced ||
    subscriptionChanges.length > 0 ||
    countChanges.length > 0;
  const episodes: Episode[] = [];
  let open = prev.openEpisode;
  if (open || rebalancing || changed || replaced.length > 0) {
    if (!open) {
      open = {
        key: episodeKey,
        groupId,
        startedAfter: prevAt,
        detectedAt: at,
        endedBy: null,
        observedInProgress: rebalancing,
        rebalance: rebalancing || changed,
        membersBefore: prev.members.map((m) => m.memberId),
        membersAfter: [],
        partitionsMoved: [],
        epochBefore: prev.groupEpoch,
        epochAfter: null,
        causes: [],
      };
    }
    open = {
      ...open,
      rebalance: open.rebalance || rebalancing || changed,
      observedInProgress: open.observedInProgress || rebalancing,
      partitionsMoved: mergeMoves(open.partitionsMoved, moved),
      causes: mergeCauses(open.causes, causes),
      membersAfter: group.members.map((m) => m.memberId),
      epochAfter: group.groupEpoch,
    };
    if (!rebalancing) {
      // Settled (Stable or Empty): the episode ends with this observation.
      if (
        open.causes.length === 0 ||
        (open.rebalance && open.causes.every((c) => c.kind === "static-member-restarted"))
      ) {
        open.causes = [
          ...open.causes,
          {
            kind: "unknown",
            confidence: "low",
            evidence: [
              `the group rebalanced (${prev.state} → ${group.state}) with no member, subscription or partition-count change visible between polls; a leader rejoin or a change that came and went between polls can do this`,
            ],
          },
        ];
      }
      open.endedBy = at;
      episodes.push(open);
      open = null;
    } else {
      episodes.push(open);
    }
  }

  // Amendments that concern the episode still open (or just closed) apply here directly.
  const external: CauseAmendment[] = [];
  for (const a of amendments) {
    const target = episodes.find((e) => e.key === a.episodeKey);
    if (!target) {
      external.push(a);
      continue;
    }
    target.causes = target.causes.map((c) =>
      c.memberId === a.memberId && c.kind !== "member-joined"
        ? { ...c, kind: a.kind, confidence: a.confidence, evidence: [...c.evidence, a.evidence] }
        : c,
    );
  }

  const stillThere = prev.sessions.filter((s) => nowById.has(s.memberId));
  const state: GroupTimelineState = {
    groupId,
    type: group.type,
    state: group.state,
    stateSince: group.state === prev.state ? prev.stateSince : at,
    lastSeenAt: at,
    groupEpoch: group.groupEpoch,
    members: group.members,
    sessions: [
      ...stillThere.map((s) => sessions.find((x) => x.key === s.key && x.leftAt === null) ?? s),
      ...sessions.filter((s) => s.leftAt === null && !stillThere.some((p) => p.key === s.key)),
    ],
    progress,
    topicPartitions,
    openEpisode: open,
    interval: iv,
    departures,
  };
  return { state, events, episodes, sessions, intervals, amendments: external };
}

function mergeMoves(a: MovedPartition[], b: MovedPartition[]): MovedPartition[] {
  const byKey = new Map(a.map((m) => [tp(m.topic, m.partition), m]));
  for (const m of b) {
    const k = tp(m.topic, m.partition);
    const first = byKey.get(k);
    byKey.set(k, first ? { ...m, from: first.from } : m);
  }
  return [...byKey.values()].filter((m) => m.from !== m.to);
}

function mergeCauses(a: Cause[], b: Cause[]): Cause[] {
  const out = [...a];
  for (const c of b) {
    const same = out.findIndex((x) => x.kind === c.kind && x.memberId === c.memberId && x.topic === c.topic);
    if (same >= 0)
      out[same] = { ...out[same]!, evidence: [...new Set([...out[same]!.evidence, ...c.evidence])] };
    else out.push(c);
  }
  return out;
}
