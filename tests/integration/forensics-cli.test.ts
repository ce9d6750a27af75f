import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import path from "node:path";
import { promisify } from "node:util";

import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

import { createPrisma, type PrismaClient } from "../../lib/db/client";
import { root, uniqueName } from "../fixtures/processes";

// `npm run forensics` against the real database. The episodes here are written directly (the
// collector's own output is covered by the rebalance scenarios); what is tested is the query,
// the window, the group filter, both formats and the errors.

const exec = promisify(execFile);
const databaseUrl = inject("databaseUrl");
const name = uniqueName("cli");
const T0 = Date.parse("2026-11-30T10:00:00Z");
let db: PrismaClient;

async function cli(args: string[]) {
  try {
    const r = await exec(
      process.execPath,
      ["--import", "tsx", path.join(root, "scripts/forensics.ts"), ...args],
      {
        cwd: root,
        env: { ...process.env, DATABASE_URL: databaseUrl },
      },
    );
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

beforeAll(async () => {
  db = createPrisma(databaseUrl);
  const c = await db.cluster.create({ data: { name, brokers: ["127.0.0.1:1"], source: "api" } });
  const ep = (groupId: string, at: number, kind: string, clientId: string) => ({
    clusterId: c.id,
    keyHash: createHash("sha1").update(`${groupId}|${at}`).digest("hex"),
    groupKey: groupId,
    groupId,
    startedAfter: new Date(at - 1000),
    detectedAt: new Date(at),
    endedBy: new Date(at + 2000),
    observedInProgress: true,
    rebalance: true,
    causeKinds: [kind],
    causes: [
      { kind, clientId, memberId: `${clientId}-m`, confidence: "high", evidence: [`${kind} of ${clientId}`] },
    ],
    membersBefore: ["x"],
    membersAfter: [],
    partitionsMoved: [],
  });
  await db.rebalanceEpisode.createMany({
    data: [
      ep("orders", T0 + 60_000, "member-crashed", "orders-2"),
      ep("payments", T0 + 120_000, "member-left", "pay-1"),
      ep("orders", T0 + 7_200_000, "member-joined", "late"),
    ],
  });
});

afterAll(async () => {
  await db.cluster.deleteMany({ where: { name } });
  await db.$disconnect();
});

describe("npm run forensics", () => {
  it("prints a Markdown report of the window, naming each rebalance with its cause", async () => {
    const r = await cli([
      "--cluster",
      name,
      "--from",
      new Date(T0).toISOString(),
      "--to",
      String(T0 + 3_600_000),
    ]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("- Rebalances: 2 in 2 group(s)");
    expect(r.stdout).toMatch(/\*\*orders\*\*: rebalance[\s\S]*\*\*member-crashed\*\* client orders\\-2/);
    expect(r.stdout).toMatch(/\*\*payments\*\*: rebalance[\s\S]*\*\*member-left\*\* client pay\\-1/);
    expect(r.stdout).not.toContain("late"); // outside the window
  });

  it("filters by group and prints JSON with a summary", async () => {
    const r = await cli([
      "--cluster",
      name,
      "--from",
      String(T0),
      "--to",
      String(T0 + 3_600_000),
      "--group",
      "payments",
      "--format",
      "json",
    ]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as {
      episodes: { groupId: string }[];
      summary: { rebalances: number; membersLost: number };
    };
    expect(out.episodes.map((e) => e.groupId)).toEqual(["payments"]);
    expect(out.summary).toMatchObject({ rebalances: 1, membersLost: 1 });
  });

  it.each([
    {
      label: "an inverted range",
      args: ["--from", String(T0 + 1000), "--to", String(T0)],
      code: 2,
      message: /before --to/,
    },
    {
      label: "a garbage date",
      args: ["--from", "yesterday-ish", "--to", String(T0)],
      code: 2,
      message: /neither ISO-8601 nor epoch/,
    },
    {
      label: "a window over 31 days",
      args: ["--from", "2026-01-01", "--to", "2026-11-30"],
      code: 2,
      message: /31 days/,
    },
    { label: "an unknown format", args: ["--format", "pdf"], code: 2, message: /md|json/ },
    { label: "an unknown option", args: ["--drop-table", "x"], code: 2, message: /Unknown option/ },
  ])("rejects $label with a clear message", async ({ args, code, message }) => {
    const r = await cli(["--cluster", name, ...args]);
    expect(r.code).toBe(code);
    expect(r.stderr).toMatch(message);
  });

  it("says which cluster is unknown (exit 3), SQL-looking names included", async () => {
    const r = await cli(["--cluster", "x'; drop table cluster; --"]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('unknown cluster "x\'; drop table cluster; --"');
    expect(await db.cluster.count({ where: { name } })).toBe(1);
  });
});
