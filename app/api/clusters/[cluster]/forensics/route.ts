import { forensicsFilename, forensicsMarkdown, getForensics, ZForensicsQuery } from "@/lib/api/forensics";
import { handler, parseQuery } from "@/lib/api/handler";
import { ZClusterParams } from "@/lib/api/route-params";
import { prisma } from "@/lib/db/client";

export const dynamic = "force-dynamic";

/** GET /api/clusters/:cluster/forensics?from=&to=&group=a&group=b&format=json|md */
export const GET = handler("viewer", ZClusterParams, async ({ url, params }) => {
  const q = parseQuery(url, ZForensicsQuery, ["group"]);
  const report = await getForensics(prisma(), params.cluster, q);
  if (q.format === "md") {
    return new Response(forensicsMarkdown(report), {
      headers: {
        "Content-Type": "text/markdown; charset=utf-8",
        "Content-Disposition": `attachment; filename="${forensicsFilename(report.input.cluster, q.from)}"`,
      },
    });
  }
  const { episodes, events, truncated, cluster, peakLag } = report.input;
  return { cluster, from: q.from, to: q.to, truncated, summary: report.summary, peakLag, episodes, events };
});
