import { handler, parseQuery } from "@/lib/api/handler";
import { ZGroupParams } from "@/lib/api/route-params";
import { getTimeline, ZTimelineQuery } from "@/lib/api/timeline";
import { prisma } from "@/lib/db/client";

export const dynamic = "force-dynamic";

/** GET /api/clusters/:cluster/groups/:group/timeline?from=&to= */
export const GET = handler("viewer", ZGroupParams, async ({ url, params }) =>
  getTimeline(prisma(), params.cluster, params.group, parseQuery(url, ZTimelineQuery)),
);
