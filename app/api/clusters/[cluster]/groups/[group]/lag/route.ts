import { handler, parseQuery } from "@/lib/api/handler";
import { getLag, ZLagQuery } from "@/lib/api/lag";
import { ZGroupParams } from "@/lib/api/route-params";
import { prisma } from "@/lib/db/client";

export const dynamic = "force-dynamic";

/** GET /api/clusters/:cluster/groups/:group/lag?from=&to=&step=&partitions= */
export const GET = handler("viewer", ZGroupParams, async ({ url, params }) =>
  getLag(prisma(), params.cluster, params.group, parseQuery(url, ZLagQuery)),
);
