import type { PrismaClient } from "../../client";

// Read side of incidents (written by the alerting side).

export interface IncidentRow {
  id: string;
  clusterId: string;
  cluster: string;
  groupId: string;
  kind: string;
  state: string;
  severity: string;
  openedAt: Date;
  updatedAt: Date;
  resolvedAt: Date | null;
  summary: string;
  details: unknown;
}

const select = {
  id: true,
  clusterId: true,
  groupId: true,
  kind: true,
  state: true,
  severity: true,
  openedAt: true,
  updatedAt: true,
  resolvedAt: true,
  summary: true,
  details: true,
  cluster: { select: { name: true } },
} as const;

export async function listIncidents(
  db: PrismaClient,
  q: {
    clusterId?: string | undefined;
    groupKey?: string | undefined;
    state?: "open" | "resolved" | undefined;
    from?: Date | undefined;
    to?: Date | undefined;
    limit: number;
  },
): Promise<{ rows: IncidentRow[]; truncated: boolean }> {
  const rows = await db.incident.findMany({
    where: {
      ...(q.clusterId !== undefined ? { clusterId: q.clusterId } : {}),
      ...(q.groupKey !== undefined ? { groupKey: q.groupKey } : {}),
      ...(q.state !== undefined ? { state: q.state } : {}),
      ...(q.from !== undefined || q.to !== undefined ? { openedAt: { gte: q.from, lte: q.to } } : {}),
    },
    orderBy: [{ openedAt: "desc" }, { id: "asc" }],
    take: q.limit + 1,
    select,
  });
  return {
    rows: rows.slice(0, q.limit).map(({ cluster, ...r }) => ({ ...r, cluster: cluster.name })),
    truncated: rows.length > q.limit,
  };
}
