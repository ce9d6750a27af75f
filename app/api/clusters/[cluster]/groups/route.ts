import { listClusterGroups, ZGroupListQuery } from "@/lib/api/groups";
import { handler, parseQuery } from "@/lib/api/handler";
import { ZClusterParams } from "@/lib/api/route-params";
import { prisma } from "@/lib/db/client";

export const dynamic = "force-dynamic";

/** GET /api/clusters/:cluster/groups: one page of groups (keyset paging, see lib/api/groups). */
export const GET = handler("viewer", ZClusterParams, async ({ url, params }) =>
  listClusterGroups(prisma(), params.cluster, parseQuery(url, ZGroupListQuery)),
);
