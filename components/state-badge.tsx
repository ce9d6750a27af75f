// Coloured badges for group states, consumer statuses and cluster poll states. The colours are
// CSS variables (globals.css), readable in both themes; the text always says the state too.

const slug = (s: string) => s.replace(/[^A-Za-z0-9-]/g, "").toLowerCase() || "unknown";

export const STATE_DESCRIPTIONS: Record<string, string> = {
  Stable: "members agreed on an assignment and consume",
  Empty: "no members; offsets kept",
  PreparingRebalance: "rebalance in progress: members are (re)joining",
  CompletingRebalance: "rebalance in progress: waiting for the leader's assignment",
  Assigning: "KIP-848: the coordinator computes a new assignment",
  Reconciling: "KIP-848: members are moving to their new assignment",
  Dead: "the group no longer exists",
  Unknown: "state not reported",
};

export const STATUS_DESCRIPTIONS: Record<string, string> = {
  OK: "committing and keeping up",
  WARN: "lag growing over the window",
  REWIND: "committed offsets moved backwards",
  STALL: "commits stuck while lag remains",
  STOP: "nobody commits any more",
  unknown: "not enough data yet",
};

/** State of a consumer group (Stable, Empty, PreparingRebalance, ...). */
export function StateBadge({ state }: { state: string | null | undefined }) {
  const s = state ?? "Unknown";
  return (
    <span className={`badge state st-${slug(s)}`} title={STATE_DESCRIPTIONS[s] ?? s} data-state={s}>
      {s}
    </span>
  );
}

/** Consumer status (Burrow-style): OK, WARN, REWIND, STALL, STOP, unknown. */
export function StatusBadge({ status }: { status: string | null | undefined }) {
  const s = status ?? "unknown";
  return (
    <span className={`badge status cs-${slug(s)}`} title={STATUS_DESCRIPTIONS[s] ?? s} data-status={s}>
      {s}
    </span>
  );
}

/** Poll health of a cluster: ok, error, pending (never polled), disabled. */
export function HealthBadge({ state }: { state: string }) {
  const label = state === "pending" ? "waiting for first poll" : state;
  return <span className={`badge health hs-${slug(state)}`}>{label}</span>;
}

/** CSS class giving `--c` the colour of a group state (for bars and chart marks). */
export const stateColorClass = (state: string) => `st-${slug(state)}`;
export const leftHowColorClass = (how: string | null) => `lh-${slug(how ?? "present")}`;
