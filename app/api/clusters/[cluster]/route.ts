import { z } from "zod";

import { getCluster } from "@/lib/api/clusters";
import { deleteCluster, updateCluster, ZClusterUpdate } from "@/lib/api/cluster-admin";
import { handler, parseBody, parseQuery } from "@/lib/api/handler";
import { ZClusterParams } from "@/lib/api/route-params";
import { prisma } from "@/lib/db/client";

export const dynamic = "force-dynamic";

/** GET /api/clusters/:cluster: brokers, controller, counts, status and groups by state. */
export const GET = handler("viewer", ZClusterParams, async ({ url, params }) => {
  parseQuery(url, z.strictObject({}));
  return getCluster(prisma(), params.cluster);
});

/** PATCH /api/clusters/:cluster (admin): omitted fields and secrets are kept. */
export const PATCH = handler("admin", ZClusterParams, async ({ request, params }) =>
  updateCluster(prisma(), params.cluster, await parseBody(request, ZClusterUpdate)),
);

/** DELETE /api/clusters/:cluster (admin): the cluster and everything recorded about it. */
export const DELETE = handler("admin", ZClusterParams, ({ params }) =>
  deleteCluster(prisma(), params.cluster),
);
