import { z } from "zod";

import { listClusters } from "@/lib/api/clusters";
import { createCluster, ZClusterCreate } from "@/lib/api/cluster-admin";
import { handler, parseBody, parseQuery, withStatus } from "@/lib/api/handler";
import { ZNoParams } from "@/lib/api/route-params";
import { prisma } from "@/lib/db/client";

export const dynamic = "force-dynamic";

/** GET /api/clusters: every cluster with its poll status. */
export const GET = handler("viewer", ZNoParams, async ({ url }) => {
  parseQuery(url, z.strictObject({}));
  return listClusters(prisma());
});

/** POST /api/clusters (admin): a new cluster; the collector picks it up within seconds. */
export const POST = handler("admin", ZNoParams, async ({ request }) =>
  withStatus(await createCluster(prisma(), await parseBody(request, ZClusterCreate)), 201),
);
