import { NextResponse } from "next/server";
import { z } from "zod";

import { authErrorResponse, authorize } from "@/lib/auth/authorize";
import { createUser, listUsers, UserError, ZCreateUser } from "@/lib/auth/users";
import { prisma } from "@/lib/db/client";

export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  const auth = await authorize(request, "admin");
  if (!auth.ok) return authErrorResponse(auth);
  return NextResponse.json({ users: await listUsers(prisma()) });
}

export async function POST(request: Request) {
  const auth = await authorize(request, "admin");
  if (!auth.ok) return authErrorResponse(auth);
  const body: unknown = await request.json().catch(() => undefined);
  const parsed = ZCreateUser.safeParse(body);
  if (!parsed.success) return NextResponse.json({ error: z.prettifyError(parsed.error) }, { status: 400 });
  try {
    return NextResponse.json({ user: await createUser(prisma(), parsed.data) }, { status: 201 });
  } catch (e) {
    if (e instanceof UserError) return NextResponse.json({ error: e.message }, { status: e.status });
    throw e;
  }
}
