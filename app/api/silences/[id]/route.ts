import { z } from "zod";

import { handler } from "@/lib/api/handler";
import { expireSilence } from "@/lib/api/silences";
import { prisma } from "@/lib/db/client";

export const dynamic = "force-dynamic";

/** DELETE /api/silences/:id (operator): expires the silence now; the row stays as history. */
export const DELETE = handler("operator", z.object({ id: z.string() }), ({ params }) =>
  expireSilence(prisma(), params.id),
);
