import { handler, parseQuery } from "@/lib/api/handler";
import { listIncidents, ZIncidentQuery } from "@/lib/api/incidents";
import { ZNoParams } from "@/lib/api/route-params";
import { prisma } from "@/lib/db/client";

export const dynamic = "force-dynamic";

/** GET /api/incidents?cluster=&state=open|resolved&from=&to=&limit= */
export const GET = handler("viewer", ZNoParams, async ({ url }) =>
  listIncidents(prisma(), parseQuery(url, ZIncidentQuery)),
);
