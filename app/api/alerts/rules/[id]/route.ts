import { z } from "zod";

import { handler, parseBody } from "@/lib/api/handler";
import { deleteRule, updateRule, ZRuleUpdate } from "@/lib/api/rules";
import { prisma } from "@/lib/db/client";

export const dynamic = "force-dynamic";

const ZParams = z.object({ id: z.string() });

/** PATCH /api/alerts/rules/:id (admin): any of clusterId, groupGlob, kind, enabled, params. */
export const PATCH = handler("admin", ZParams, async ({ request, params }) =>
  updateRule(prisma(), params.id, await parseBody(request, ZRuleUpdate)),
);

/** DELETE /api/alerts/rules/:id (admin). */
export const DELETE = handler("admin", ZParams, ({ params }) => deleteRule(prisma(), params.id));
