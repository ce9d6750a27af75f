import { handler, parseBody, withStatus } from "@/lib/api/handler";
import { ZNoParams } from "@/lib/api/route-params";
import { createRule, listRules, ZRuleCreate } from "@/lib/api/rules";
import { prisma } from "@/lib/db/client";

export const dynamic = "force-dynamic";

/** GET /api/alerts/rules: the defaults of every rule kind and the override rows. */
export const GET = handler("viewer", ZNoParams, () => listRules(prisma()));

/** POST /api/alerts/rules (admin): {clusterId|null, groupGlob|null, kind, enabled, params}. */
export const POST = handler("admin", ZNoParams, async ({ request }) =>
  withStatus(await createRule(prisma(), await parseBody(request, ZRuleCreate)), 201),
);
