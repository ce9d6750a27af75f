// The server-side gate of every API route handler: `authorize(request, role)`.
// The session cookie says who is asking; the database says what they may do now. The user row
// is read on every call (one lookup by the unique username), so a demoted, disabled or deleted
// user loses access at their next request, without signing out.

import { prisma, type PrismaClient } from "../db/client";
import { roleAtLeast, type Role } from "./roles";
import { authSecret } from "./secret";
import { decodeSession, parseCookieHeader, sessionTokenFrom } from "./session";
import { findUser } from "./users";

export type { Role } from "./roles";

export interface Principal {
  username: string;
  role: Role;
}

export type AuthResult = { ok: true; principal: Principal } | { ok: false; status: 401 | 403; error: string };

export const NOT_SIGNED_IN: AuthResult = { ok: false, status: 401, error: "sign in first" };

/** 401 when not signed in (or the account is gone or disabled), 403 when the role is too weak. */
export async function authorize(request: Request, role: Role): Promise<AuthResult> {
  return authorizeCookies(request.headers.get("cookie"), role);
}

/** authorize() for a raw Cookie header (server components pass theirs). */
export async function authorizeCookies(
  cookieHeader: string | null | undefined,
  role: Role,
  db: PrismaClient = prisma(),
): Promise<AuthResult> {
  const claims = await decodeSession(sessionTokenFrom(parseCookieHeader(cookieHeader)), authSecret());
  if (!claims) return NOT_SIGNED_IN;
  return authorizeUser(db, claims.username, role);
}

/** The role check against the user's current row. */
export async function authorizeUser(db: PrismaClient, username: string, role: Role): Promise<AuthResult> {
  const user = await findUser(db, username);
  if (!user || user.disabled) {
    return { ok: false, status: 401, error: "this account is disabled or no longer exists" };
  }
  if (!roleAtLeast(user.role, role)) {
    return { ok: false, status: 403, error: `this needs the ${role} role; you have ${user.role}` };
  }
  return { ok: true, principal: { username: user.username, role: user.role } };
}

/** The JSON response for a failed AuthResult: `{ error }` with 401 or 403. */
export function authErrorResponse(result: Extract<AuthResult, { ok: false }>): Response {
  return Response.json({ error: result.error }, { status: result.status });
}
