import NextAuth from "next-auth";
import type { NextRequest } from "next/server";

import { env } from "@/lib/env.js";
import { authOptions } from "@/lib/auth/options";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ nextauth: string[] }> };

// Without NEXTAUTH_URL, NextAuth v4 would build its URLs for http://localhost:3000; trusting the
// request's Host header instead makes `npm start` work on any host and port. Set NEXTAUTH_URL
// when the dashboard sits behind a proxy (and for OIDC, whose redirect URI must be exact).
function handler(request: NextRequest, context: Context): Promise<Response> {
  if (!env().NEXTAUTH_URL) process.env.AUTH_TRUST_HOST ??= "1";
  return NextAuth(request, context, authOptions()) as Promise<Response>;
}

export { handler as GET, handler as POST };
