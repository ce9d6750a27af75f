import { z } from "zod";

import { handler, parseBody } from "@/lib/api/handler";
import { deleteWebhook, updateWebhook } from "@/lib/api/webhooks";
import { prisma } from "@/lib/db/client";
import { ZWebhookEndpointUpdate } from "@/lib/db/queries/webhooks";

export const dynamic = "force-dynamic";

const ZParams = z.object({ id: z.string() });

/** PATCH /api/webhooks/:id (admin): omitted fields (and secrets) are kept; secret null removes it. */
export const PATCH = handler("admin", ZParams, async ({ request, params }) =>
  updateWebhook(prisma(), params.id, await parseBody(request, ZWebhookEndpointUpdate.strict())),
);

/** DELETE /api/webhooks/:id (admin): the endpoint, its outbox rows and its delivery log. */
export const DELETE = handler("admin", ZParams, ({ params }) => deleteWebhook(prisma(), params.id));
