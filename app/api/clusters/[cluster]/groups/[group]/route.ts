import { z } from "zod";

import { getGroup } from "@/lib/api/groups";
import { handler, parseQuery } from "@/lib/api/handler";
import { ZGroupParams } from "@/lib/api/route-params";
import { prisma } from "@/lib/db/client";

export const dynamic = "force-dynamic";

/** GET /api/clusters/:cluster/groups/:group: state, members, partitions, status, incidents. */
export const GET = handler("viewer", ZGroupParams, async ({ url, params }) => {
  parseQuery(url, z.strictObject({}));
  return getGroup(prisma(), params.cluster, params.group);
});
