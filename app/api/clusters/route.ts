import { NextResponse } from "next/server";

import { prisma } from "@/lib/db/client";
import { listClusterOverviews } from "@/lib/db/queries/clusters";

export const dynamic = "force-dynamic";

export async function GET() {
  const clusters = await listClusterOverviews(prisma());
  return NextResponse.json({ clusters });
}
