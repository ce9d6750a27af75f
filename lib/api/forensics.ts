import { z } from "zod";

import type { PrismaClient } from "../db/client";
import { loadForensics, MAX_FORENSICS_ROWS } from "../db/queries/read/forensics";
import { renderMarkdown, summarize } from "../domain/forensics";
import { resolveCluster } from "./clusters";
import { windowFields, withWindow, ZGroupId, zEnum, type WindowRules } from "./params";

export const MAX_FORENSICS_GROUPS = 1000;

/** Options of a forensics report, shared by the API (?from=&to=&group=&format=) and the CLI
 *  (--from --to --group --format): the same rules, named as each caller names them. */
export function forensicsOptions(opts: { format: "md" | "json"; names?: WindowRules["names"] }) {
  return {
    ...windowFields,
    group: z.array(ZGroupId).max(MAX_FORENSICS_GROUPS, `at most ${MAX_FORENSICS_GROUPS} groups`).default([]),
    format: zEnum("format", ["md", "json"]).default(opts.format),
  };
}

export const ZForensicsQuery = z
  .strictObject(forensicsOptions({ format: "json" }))
  .transform(
    withWindow<{ from?: Date | undefined; to?: Date | undefined; group: string[]; format: "md" | "json" }>(),
  );
export type ForensicsQuery = z.output<typeof ZForensicsQuery>;

export async function getForensics(
  db: PrismaClient,
  clusterRef: string,
  q: { from: Date; to: Date; group: string[] },
) {
  const cluster = await resolveCluster(db, clusterRef);
  const input = await loadForensics(db, {
    clusterId: cluster.id,
    clusterName: cluster.name,
    from: q.from,
    to: q.to,
    groups: q.group,
  });
  return { input, summary: summarize(input) };
}

export function forensicsMarkdown(r: Awaited<ReturnType<typeof getForensics>>): string {
  const md = renderMarkdown(r.input, r.summary);
  return r.input.truncated
    ? `${md}\n(truncated at ${MAX_FORENSICS_ROWS.toLocaleString("en-US")} rows: narrow the window or the groups)\n`
    : md;
}

/** groupwatch-<cluster>-<from>.md with only [A-Za-z0-9._-] in it. */
export function forensicsFilename(cluster: string, from: Date): string {
  const safe = cluster.replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 100) || "cluster";
  const when = from
    .toISOString()
    .replace(/\.\d{3}Z$/, "Z")
    .replace(/[-:]/g, "");
  return `groupwatch-${safe}-${when}.md`;
}
