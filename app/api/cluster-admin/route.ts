import { listClusterConfigs } from "@/lib/api/cluster-admin";
import { handler } from "@/lib/api/handler";
import { ZNoParams } from "@/lib/api/route-params";
import { prisma } from "@/lib/db/client";

export const dynamic = "force-dynamic";

/** GET /api/cluster-admin (admin): every cluster's configuration, secrets reduced to booleans. */
export const GET = handler("admin", ZNoParams, () => listClusterConfigs(prisma()));
