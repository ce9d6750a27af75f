import { NextResponse } from "next/server";

import { prisma } from "@/lib/db/client";

export const dynamic = "force-dynamic";

// Liveness plus database reachability; the one route that will stay public when sign-in lands.
export async function GET() {
  try {
    await prisma().$queryRaw`select 1`;
    return NextResponse.json({ ok: true, database: "ok" });
  } catch (e) {
    return NextResponse.json(
      { ok: false, database: "error", error: e instanceof Error ? e.message : String(e) },
      { status: 503 },
    );
  }
}
