import { z } from "zod";

import { listClusters } from "@/lib/api/clusters";
import { handler, parseQuery } from "@/lib/api/handler";
import { ZNoParams } from "@/lib/api/route-params";
import { prisma } from "@/lib/db/client";

export const dynamic = "force-dynamic";

/** GET /api/clusters: every cluster with its poll status. */
export const GET = handler("viewer", ZNoParams, async ({ url }) => {
  parseQuery(url, z.strictObject({}));
  return listClusters(prisma());
});
