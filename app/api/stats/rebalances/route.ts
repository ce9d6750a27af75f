import { handler, parseQuery } from "@/lib/api/handler";
import { ZNoParams } from "@/lib/api/route-params";
import { getRebalanceStats, ZRebalanceStatsQuery } from "@/lib/api/stats";
import { prisma } from "@/lib/db/client";

export const dynamic = "force-dynamic";

/** GET /api/stats/rebalances?cluster=&from=&to=&bucket=3600: rebalance episodes per bucket. */
export const GET = handler("viewer", ZNoParams, async ({ url }) =>
  getRebalanceStats(prisma(), parseQuery(url, ZRebalanceStatsQuery)),
);
