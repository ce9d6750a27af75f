import { NextResponse } from "next/server";
import { z } from "zod";

import { authErrorResponse, authorize } from "@/lib/auth/authorize";
import { deleteUser, updateUser, UserError, ZUpdateUser } from "@/lib/auth/users";
import { prisma } from "@/lib/db/client";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

async function userId(context: Context): Promise<string | null> {
  const { id } = await context.params;
  return z.uuid().safeParse(id).success ? id : null;
}

function userError(e: unknown): Response {
  if (e instanceof UserError) return NextResponse.json({ error: e.message }, { status: e.status });
  throw e;
}

/** Changes a user's role, disabled flag, name or password. */
export async function PATCH(request: Request, context: Context) {
  const auth = await authorize(request, "admin");
  if (!auth.ok) return authErrorResponse(auth);
  const id = await userId(context);
  if (!id) return NextResponse.json({ error: "no such user" }, { status: 404 });
  const body: unknown = await request.json().catch(() => undefined);
  const parsed = ZUpdateUser.safeParse(body);
  if (!parsed.success) return NextResponse.json({ error: z.prettifyError(parsed.error) }, { status: 400 });
  try {
    return NextResponse.json({ user: await updateUser(prisma(), id, parsed.data) });
  } catch (e) {
    return userError(e);
  }
}

export async function DELETE(request: Request, context: Context) {
  const auth = await authorize(request, "admin");
  if (!auth.ok) return authErrorResponse(auth);
  const id = await userId(context);
  if (!id) return NextResponse.json({ error: "no such user" }, { status: 404 });
  try {
    await deleteUser(prisma(), id);
    return new Response(null, { status: 204 });
  } catch (e) {
    return userError(e);
  }
}
