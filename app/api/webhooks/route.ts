import { handler, parseBody, withStatus } from "@/lib/api/handler";
import { ZNoParams } from "@/lib/api/route-params";
import { createWebhook, listWebhooks } from "@/lib/api/webhooks";
import { prisma } from "@/lib/db/client";
import { ZWebhookEndpointCreate } from "@/lib/db/queries/webhooks";

export const dynamic = "force-dynamic";

/** GET /api/webhooks (operator; full URLs for admins only): endpoints, hasSecret, last attempt. */
export const GET = handler("operator", ZNoParams, ({ principal }) => listWebhooks(prisma(), principal.role));

/** POST /api/webhooks (admin): {name, url, format, secret?, routingKey?, enabled?}. */
export const POST = handler("admin", ZNoParams, async ({ request }) =>
  withStatus(await createWebhook(prisma(), await parseBody(request, ZWebhookEndpointCreate.strict())), 201),
);
