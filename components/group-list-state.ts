// The cluster page's table state in the URL (?q=&state=&type=&sort=&order=&limit=&cursor=),
// so a filtered, sorted page is a shareable link. Defaults are left out of the URL. Pure; the
// lists come from lib/api/group-lists.ts, which imports nothing (no Prisma in the bundle).

import { GROUP_SORTS, GROUP_STATES, GROUP_TYPES } from "@/lib/api/group-lists";

export const LIST_STATES = GROUP_STATES;
export const LIST_TYPES = GROUP_TYPES;
export const LIST_SORTS = GROUP_SORTS;
export const PAGE_SIZES = [25, 50, 100, 250, 500] as const;
export const DEFAULT_PAGE_SIZE = 50;

export type ListSort = (typeof LIST_SORTS)[number];
export type Order = "asc" | "desc";

export interface GroupListState {
  q: string;
  state: (typeof LIST_STATES)[number] | null;
  type: (typeof LIST_TYPES)[number] | null;
  sort: ListSort;
  order: Order;
  limit: number;
  cursor: string | null;
}

/** Names and states ascend by default, everything measured descends (as the API does). */
export const defaultOrder = (sort: ListSort): Order => (sort === "name" || sort === "state" ? "asc" : "desc");

export const DEFAULT_LIST_STATE: GroupListState = {
  q: "",
  state: null,
  type: null,
  sort: "lag",
  order: "desc",
  limit: DEFAULT_PAGE_SIZE,
  cursor: null,
};

const oneOf = <T extends string>(list: readonly T[], v: string | null): T | null =>
  v !== null && (list as readonly string[]).includes(v) ? (v as T) : null;

interface ParamSource {
  get(name: string): string | null;
}

/** Reads the state from URL parameters; unknown values fall back to the defaults. */
export function decodeListState(p: ParamSource): GroupListState {
  const sort = oneOf(LIST_SORTS, p.get("sort")) ?? DEFAULT_LIST_STATE.sort;
  const limitText = p.get("limit");
  const limit = limitText !== null && /^\d{1,3}$/.test(limitText) ? Number(limitText) : NaN;
  return {
    q: (p.get("q") ?? "").slice(0, 200),
    state: oneOf(LIST_STATES, p.get("state")),
    type: oneOf(LIST_TYPES, p.get("type")),
    sort,
    order: oneOf(["asc", "desc"] as const, p.get("order")) ?? defaultOrder(sort),
    limit: limit >= 1 && limit <= 500 ? limit : DEFAULT_PAGE_SIZE,
    cursor: p.get("cursor") || null,
  };
}

/** The URL parameters for a state, defaults left out. */
export function encodeListState(s: GroupListState): URLSearchParams {
  const p = new URLSearchParams();
  if (s.q.trim() !== "") p.set("q", s.q.trim());
  if (s.state) p.set("state", s.state);
  if (s.type) p.set("type", s.type);
  if (s.sort !== DEFAULT_LIST_STATE.sort) p.set("sort", s.sort);
  if (s.order !== defaultOrder(s.sort)) p.set("order", s.order);
  if (s.limit !== DEFAULT_PAGE_SIZE) p.set("limit", String(s.limit));
  if (s.cursor) p.set("cursor", s.cursor);
  return p;
}

/** The query string for GET /api/clusters/:cluster/groups. */
export function listApiQuery(s: GroupListState): string {
  const p = new URLSearchParams();
  if (s.q.trim() !== "") p.set("q", s.q.trim());
  if (s.state) p.set("state", s.state);
  if (s.type) p.set("type", s.type);
  p.set("sort", s.sort);
  p.set("order", s.order);
  p.set("limit", String(s.limit));
  if (s.cursor) p.set("cursor", s.cursor);
  return p.toString();
}

/** Clicking a column header: the same column flips the order, another starts at its default.
 *  Any change of filter or sort starts again at the first page (a cursor is tied to its sort). */
export function toggleSort(s: GroupListState, sort: ListSort): GroupListState {
  const order = s.sort === sort ? (s.order === "asc" ? "desc" : "asc") : defaultOrder(sort);
  return { ...s, sort, order, cursor: null };
}
