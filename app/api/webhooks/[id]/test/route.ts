import { z } from "zod";

import { handler, withStatus } from "@/lib/api/handler";
import { testWebhook } from "@/lib/api/webhooks";
import { prisma } from "@/lib/db/client";

export const dynamic = "force-dynamic";

/** POST /api/webhooks/:id/test (operator): queues a test notification (202); the collector sends it. */
export const POST = handler("operator", z.object({ id: z.string() }), async ({ params }) =>
  withStatus(await testWebhook(prisma(), params.id), 202),
);
