import { connectionForTest, testConnection, ZConnectionTest } from "@/lib/api/cluster-admin";
import { handler, parseBody } from "@/lib/api/handler";
import { ZNoParams } from "@/lib/api/route-params";
import { prisma } from "@/lib/db/client";
import { logger } from "@/lib/logger";

export const dynamic = "force-dynamic";

/**
 * POST /api/clusters/test-connection (admin): the cluster form's body, or {clusterId} of a saved
 * cluster; connects for at most 10 s and answers 200 with each step's result (ok: false when a
 * step failed).
 */
export const POST = handler("admin", ZNoParams, async ({ request }) => {
  const conn = await connectionForTest(prisma(), await parseBody(request, ZConnectionTest));
  return testConnection(conn, logger.child({ component: "connection-test" }));
});
