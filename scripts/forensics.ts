// npm run forensics -- --cluster NAME --from TIME --to TIME [--group G ...] [--format md|json]
// Prints the rebalance forensics of a time window from the database (DATABASE_URL). TIME is
// ISO-8601 or epoch milliseconds; --to defaults to now, --from to one hour before --to.
import { parseArgs } from "node:util";

import { z } from "zod";

import { NotFoundError } from "../lib/api/errors";
import { forensicsMarkdown, forensicsOptions, getForensics } from "../lib/api/forensics";
import { withWindow } from "../lib/api/params";
import { createPrisma } from "../lib/db/client";
import { parseEnv } from "../lib/env.js";

// The same rules as GET /api/clusters/:cluster/forensics (lib/api), named as options here.
const ZArgs = z
  .object({
    cluster: z.string().min(1, "--cluster is required").max(200, "--cluster may be 200 characters at most"),
    ...forensicsOptions({ format: "md", names: { from: "--from", to: "--to" } }),
  })
  .transform(
    withWindow<{ cluster: string; from?: Date; to?: Date; group: string[]; format: "md" | "json" }>({
      names: { from: "--from", to: "--to" },
    }),
  );

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
    const report = await getForensics(db, args.data.cluster, args.data);
    if (args.data.format === "json") {
      process.stdout.write(`${JSON.stringify({ ...report.input, summary: report.summary }, null, 2)}\n`);
    } else {
      process.stdout.write(forensicsMarkdown(report));
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
