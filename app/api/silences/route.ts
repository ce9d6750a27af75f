import { handler, parseBody, withStatus } from "@/lib/api/handler";
import { ZNoParams } from "@/lib/api/route-params";
import { createSilence, listSilences, ZSilenceCreate } from "@/lib/api/silences";
import { prisma } from "@/lib/db/client";

export const dynamic = "force-dynamic";

/** GET /api/silences: active (and upcoming) silences, and those ended in the last 7 days. */
export const GET = handler("viewer", ZNoParams, () => listSilences(prisma()));

/** POST /api/silences (operator): {clusterId, groupGlob, kind, startsAt?, endsAt | duration, comment}. */
export const POST = handler("operator", ZNoParams, async ({ request, principal }) =>
  withStatus(
    await createSilence(prisma(), await parseBody(request, ZSilenceCreate), principal.username),
    201,
  ),
);
