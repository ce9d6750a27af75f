// npm run forensics -- --cluster NAME --from TIME --to TIME [--group G ...] [--format md|json]
// Prints the rebalance forensics of a time window from the database (DATABASE_URL). TIME is
// ISO-8601 or epoch milliseconds; --to defaults to now, --from to one hour before --to.
import { parseArgs } from "node:util";

import { z } from "zod";

import { createPrisma } from "../lib/db/client";
import { loadForensics, NotFoundError } from "../lib/db/queries/forensics";
import { renderMarkdown, summarize } from "../lib/domain/forensics";
import { parseEnv } from "../lib/env.js";

const MAX_WINDOW_MS = 31 * 24 * 3_600_000;

const ZTime = z.string().transform((s, ctx) => {
  const t = /^\d{10,16}$/.test(s) ? Number(s) : Date.parse(s);
  if (!Number.isFinite(t)) {
    ctx.addIssue({
      code: "custom",
      message: `"${s.slice(0, 60)}" is neither ISO-8601 nor epoch milliseconds`,
    });
    return z.NEVER;
  }
  return new Date(t);
});

const ZArgs = z
  .object({
    cluster: z.string().min(1, "--cluster is required").max(200),
    from: ZTime.optional(),
    to: ZTime.optional(),
    group: z.array(z.string().max(10_000)).max(1000).default([]),
    format: z.enum(["md", "json"]).default("md"),
  })
  .transform((a) => {
    const to = a.to ?? new Date();
    return { ...a, to, from: a.from ?? new Date(to.getTime() - 3_600_000) };
  })
  .refine((a) => a.from < a.to, { message: "--from must be before --to" })
  .refine((a) => a.to.getTime() - a.from.getTime() <= MAX_WINDOW_MS, {
    message: "the window may span 31 days at most",
  });

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        cluster: { type: "string" },
        from: { type: "string" },
        to: { type: "string" },
        group: { type: "string", multiple: true },
        format: { type: "string" },
      },
    }));
  } catch (e) {
    process.stderr.write(`forensics: ${(e as Error).message}\n`);
    return 2;
  }
  const args = ZArgs.safeParse({ ...values, cluster: values.cluster ?? "" });
  if (!args.success) {
    process.stderr.write(`forensics: ${args.error.issues.map((i) => i.message).join("; ")}\n`);
    return 2;
  }
  const env = parseEnv(process.env);
  if (!env.DATABASE_URL) {
    process.stderr.write("forensics: DATABASE_URL is not set\n");
    return 2;
  }
  const db = createPrisma(env.DATABASE_URL);
  try {
    const data = await loadForensics(db, {
      cluster: args.data.cluster,
      from: args.data.from,
      to: args.data.to,
      groups: args.data.group,
    });
    if (args.data.format === "json") {
      process.stdout.write(`${JSON.stringify({ ...data, summary: summarize(data) }, null, 2)}\n`);
    } else {
      process.stdout.write(renderMarkdown(data));
      if (data.truncated)
        process.stdout.write("\n(truncated at 10,000 rows: narrow the window or the groups)\n");
    }
    return 0;
  } catch (e) {
    if (e instanceof NotFoundError) {
      process.stderr.write(`forensics: ${e.message}\n`);
      return 3;
    }
    throw e;
  } finally {
    await db.$disconnect();
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`forensics: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  },
);
