import { z } from "zod";

import { getCluster } from "@/lib/api/clusters";
import { handler, parseQuery } from "@/lib/api/handler";
import { ZClusterParams } from "@/lib/api/route-params";
import { prisma } from "@/lib/db/client";

export const dynamic = "force-dynamic";

/** GET /api/clusters/:cluster: brokers, controller, counts, status and groups by state. */
export const GET = handler("viewer", ZClusterParams, async ({ url, params }) => {
  parseQuery(url, z.strictObject({}));
  return getCluster(prisma(), params.cluster);
});
