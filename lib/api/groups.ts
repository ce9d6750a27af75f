import { z } from "zod";

import type { PrismaClient } from "../db/client";
import { groupKey } from "../db/queries/groups";
import type { ClusterRef } from "../db/queries/read/clusters";
import {
  findGroup,
  GROUP_SORTS,
  groupExists,
  listGroups,
  loadConsumerStatus,
  type GroupSort,
} from "../db/queries/read/groups";
import { listIncidents } from "../db/queries/read/incidents";
import { resolveCluster } from "./clusters";
import { BadRequestError, NotFoundError } from "./errors";
import { zBool, zEnum, zInt } from "./params";

import { GROUP_STATES, GROUP_TYPES } from "./group-lists";

export { GROUP_STATES, GROUP_TYPES };
export const MAX_GROUP_PAGE = 500;

export const ZGroupListQuery = z.strictObject({
  state: zEnum("state", GROUP_STATES).optional(),
  type: zEnum("type", GROUP_TYPES).optional(),
  q: z.string().max(200, "q may be 200 characters at most").optional(),
  sort: zEnum("sort", GROUP_SORTS).default("lag"),
  order: zEnum("order", ["asc", "desc"]).optional(),
  limit: zInt("limit", 1, MAX_GROUP_PAGE).default(100),
  cursor: z.string().max(2000, "cursor is not one this API issued").optional(),
  includeDeleted: zBool("includeDeleted").default(false),
});
export type GroupListQuery = z.output<typeof ZGroupListQuery>;

/** Numbers ascend by default for names and states, descend for everything measured. */
const defaultOrder = (sort: GroupSort) => (sort === "name" || sort === "state" ? "asc" : "desc");

const ZCursor = z.strictObject({
  s: z.enum(GROUP_SORTS),
  o: z.enum(["asc", "desc"]),
  v: z.string().max(400).nullable(),
  k: z.string().max(300),
});
type Cursor = z.infer<typeof ZCursor>;

export const encodeCursor = (c: Cursor) => Buffer.from(JSON.stringify(c)).toString("base64url");

const NUMERIC = /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i;

export function decodeCursor(text: string, sort: GroupSort, order: "asc" | "desc"): Cursor {
  let parsed: Cursor;
  try {
    parsed = ZCursor.parse(JSON.parse(Buffer.from(text, "base64url").toString("utf8")));
  } catch {
    throw new BadRequestError("cursor is not one this API issued", [
      { path: "cursor", message: "not one this API issued" },
    ]);
  }
  if (parsed.s !== sort || parsed.o !== order) {
    throw new BadRequestError("cursor belongs to another sort or order: start again without it", [
      { path: "cursor", message: "belongs to another sort or order" },
    ]);
  }
  const numeric = sort !== "name" && sort !== "state";
  if ((sort === "name") !== (parsed.v === null) || (numeric && !NUMERIC.test(parsed.v ?? ""))) {
    throw new BadRequestError("cursor is not one this API issued", [
      { path: "cursor", message: "not one this API issued" },
    ]);
  }
  return parsed;
}

/**
 * One page of a cluster's groups. Keyset paging: rows are ordered by the sort value, then the
 * group key (a total order), and `nextCursor` continues after the last row, so a page never
 * repeats or skips a row because groups appeared or vanished meanwhile.
 */
export async function listClusterGroups(
  db: PrismaClient,
  clusterRef: string,
  query: GroupListQuery,
  now = new Date(),
) {
  const cluster = await resolveCluster(db, clusterRef);
  const order = query.order ?? defaultOrder(query.sort);
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor, query.sort, order);
  const { total, rows } = await listGroups(db, {
    clusterId: cluster.id,
    now,
    state: query.state,
    type: query.type,
    q: query.q,
    includeDeleted: query.includeDeleted,
    sort: query.sort,
    order,
    limit: query.limit,
    after: after && { value: after.v, key: after.k },
  });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    cluster: { id: cluster.id, name: cluster.name },
    total,
    sort: query.sort,
    order,
    groups: page.map((r) => ({
      groupId: r.groupId,
      state: r.state,
      type: r.type,
      memberCount: r.memberCount,
      totalLag: r.totalLag,
      maxLag: r.maxLag,
      unknownLagPartitions: r.unknownLagPartitions,
      lagSeconds: r.lagSeconds,
      consumerStatus: r.consumerStatus,
      rebalances1h: r.rebalances1h,
      rebalances24h: r.rebalances24h,
      lastSeenAt: r.lastSeenAt,
      deleted: r.deletedAt !== null,
      deletedAt: r.deletedAt,
    })),
    nextCursor:
      rows.length > query.limit && last
        ? encodeCursor({
            s: query.sort,
            o: order,
            v: query.sort === "name" ? null : last.sortValue,
            k: last.groupKey,
          })
        : null,
  };
}

export interface ResolvedGroup {
  cluster: ClusterRef;
  groupKey: string;
  groupId: string;
}

/** The group addressed by its id in a cluster, deleted ones included, or a 404. */
export async function resolveGroup(
  db: PrismaClient,
  clusterRef: string,
  groupId: string,
): Promise<ResolvedGroup> {
  const cluster = await resolveCluster(db, clusterRef);
  const key = groupKey(groupId);
  const g = await groupExists(db, cluster.id, key);
  if (!g) throw new NotFoundError(`unknown group "${groupId.slice(0, 200)}" in cluster "${cluster.name}"`);
  return { cluster, groupKey: key, groupId: g.groupId };
}

export async function getGroup(db: PrismaClient, clusterRef: string, groupId: string) {
  const cluster = await resolveCluster(db, clusterRef);
  const key = groupKey(groupId);
  const [g, status, incidents] = await Promise.all([
    findGroup(db, cluster.id, key),
    loadConsumerStatus(db, cluster.id, key),
    listIncidents(db, { clusterId: cluster.id, groupKey: key, state: "open", limit: 100 }),
  ]);
  if (!g) throw new NotFoundError(`unknown group "${groupId.slice(0, 200)}" in cluster "${cluster.name}"`);
  const { members: _members, partitions: _partitions, groupKey: _key, ...row } = g;
  const owner = new Map<string, string>();
  for (const m of g.members)
    for (const tp of m.assignment ?? [])
      for (const p of tp.partitions) owner.set(`${tp.topic}\u0000${p}`, m.memberId);
  return {
    cluster: { id: cluster.id, name: cluster.name },
    group: { ...row, deleted: row.deletedAt !== null },
    consumerStatus: status,
    members: g.members.map((m) => ({
      memberId: m.memberId,
      groupInstanceId: m.groupInstanceId,
      clientId: m.clientId,
      clientHost: m.clientHost,
      subscribedTopics: m.subscribedTopics,
      subscribedTopicRegex: m.subscribedTopicRegex ?? null,
      assignment: m.assignment,
      memberEpoch: m.memberEpoch ?? null,
      targetAssignment: m.targetAssignment ?? null,
    })),
    partitions: g.partitions.map((p) => ({
      topic: p.topic,
      partition: p.partition,
      committedOffset: p.committedOffset,
      logEndOffset: p.logEndOffset,
      lag: p.lag,
      lagSeconds: p.lagSeconds ?? null,
      memberId: owner.get(`${p.topic}\u0000${p.partition}`) ?? null,
    })),
    openIncidents: incidents.rows,
  };
}
