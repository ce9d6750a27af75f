import { z } from "zod";

import { handler, parseQuery } from "@/lib/api/handler";
import { webhookDeliveries, ZDeliveryQuery } from "@/lib/api/webhooks";
import { prisma } from "@/lib/db/client";

export const dynamic = "force-dynamic";

/** GET /api/webhooks/:id/deliveries?cursor=&limit= (operator): delivery attempts, newest first. */
export const GET = handler("operator", z.object({ id: z.string() }), ({ url, params }) =>
  webhookDeliveries(prisma(), params.id, parseQuery(url, ZDeliveryQuery)),
);
