// The group states, types and sort keys the groups list accepts. No imports: shared by the API
// (validation, SQL whitelist) and the browser (the cluster page's URL state) alike.

export const GROUP_STATES = [
  "Empty",
  "PreparingRebalance",
  "CompletingRebalance",
  "Stable",
  "Dead",
  "Assigning",
  "Reconciling",
  "Unknown",
] as const;
export const GROUP_TYPES = ["classic", "consumer", "share", "streams", "unknown"] as const;
export const GROUP_SORTS = [
  "lag",
  "lagSeconds",
  "rebalances1h",
  "rebalances24h",
  "name",
  "members",
  "state",
] as const;
export type GroupSort = (typeof GROUP_SORTS)[number];
