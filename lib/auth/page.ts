import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";

import { authorizeCookies, type AuthResult, type Principal } from "./authorize";
import type { Role } from "./roles";
import { PATH_HEADER } from "./page-path";
import { safeCallbackPath } from "./redirect";

// The page guard for server components:
//   const auth = await requirePageRole("admin");
//   if (!auth.ok) return <Forbidden need="admin" error={auth.error} />;
// Not signed in (or account disabled/removed): redirects to /login and back afterwards.
// Signed in with too weak a role: returns the 403 result for the page to render.

export type PageAuth = Extract<AuthResult, { ok: true }> | { ok: false; status: 403; error: string };

export async function requirePageRole(role: Role): Promise<PageAuth> {
  const result = await authorizeCookies((await cookies()).toString(), role);
  if (result.ok) return result;
  if (result.status === 403) return { ok: false, status: 403, error: result.error };
  const from = safeCallbackPath((await headers()).get(PATH_HEADER));
  redirect(`/login?callbackUrl=${encodeURIComponent(from)}`);
}

/**
 * For the root layout: on every page behind the proxy, the signed-in user as the database has
 * them now (one indexed lookup), or a redirect to /login when the account was disabled or
 * removed since signing in; null on public pages (/login), which the proxy marks by not setting
 * PATH_HEADER.
 */
export async function layoutPrincipal(): Promise<Principal | null> {
  const path = (await headers()).get(PATH_HEADER);
  if (path === null) return null;
  const result = await authorizeCookies((await cookies()).toString(), "viewer");
  if (result.ok) return result.principal;
  redirect(`/login?callbackUrl=${encodeURIComponent(safeCallbackPath(path))}`);
}
