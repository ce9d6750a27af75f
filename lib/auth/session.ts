import { decode, encode } from "next-auth/jwt";
import { z } from "zod";

import { ZRole, ZUsername } from "../env.js";

// The session is a NextAuth JWT (encrypted, in the `next-auth.session-token` cookie; no session
// table). It carries the username and the role last read from the database; it is decoded here
// for the proxy, the route guard and the page guard alike.

export const SESSION_COOKIES = ["__Secure-next-auth.session-token", "next-auth.session-token"] as const;
/** Session lifetime; the cookie is re-issued while in use. */
export const SESSION_MAX_AGE_S = 12 * 60 * 60;
/** How stale the role inside a token may get before the jwt callback re-reads it. */
export const ROLE_REFRESH_MS = 30_000;

export const ZSessionClaims = z.object({
  username: ZUsername,
  role: ZRole,
  /** When role and disabled were last read from the database (epoch ms). */
  roleCheckedAt: z.number().default(0),
  /** Set by the jwt callback when the account was disabled or removed. */
  disabled: z.boolean().optional(),
});
export type SessionClaims = z.infer<typeof ZSessionClaims>;

export function parseCookieHeader(header: string | null | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    const raw = part.slice(eq + 1).trim();
    try {
      cookies.set(name, decodeURIComponent(raw));
    } catch {
      cookies.set(name, raw);
    }
  }
  return cookies;
}

/** The raw session token among the cookies (NextAuth splits large ones into name.0, name.1, ...). */
export function sessionTokenFrom(cookies: Map<string, string>): string | undefined {
  for (const name of SESSION_COOKIES) {
    const whole = cookies.get(name);
    if (whole) return whole;
    const chunks: string[] = [];
    for (let i = 0; cookies.has(`${name}.${i}`); i++) chunks.push(cookies.get(`${name}.${i}`)!);
    if (chunks.length) return chunks.join("");
  }
  return undefined;
}

/** The claims of a valid, unexpired session token; null for anything else. */
export async function decodeSession(
  token: string | undefined,
  secret: string,
): Promise<SessionClaims | null> {
  if (!token) return null;
  try {
    const payload = await decode({ token, secret });
    const claims = ZSessionClaims.safeParse(payload);
    return claims.success ? claims.data : null;
  } catch {
    return null; // tampered, truncated or signed with another secret
  }
}

/** Issues a session token like the sign-in flow does (tests and scripts). */
export function encodeSession(claims: Omit<SessionClaims, "roleCheckedAt">, secret: string): Promise<string> {
  return encode({
    token: { ...claims, sub: claims.username, name: claims.username, roleCheckedAt: Date.now() },
    secret,
    maxAge: SESSION_MAX_AGE_S,
  });
}
