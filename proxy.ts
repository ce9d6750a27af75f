import { NextResponse, type NextRequest } from "next/server";

import { PATH_HEADER } from "./lib/auth/page-path";
import { authSecret } from "./lib/auth/secret";
import { decodeSession, parseCookieHeader, sessionTokenFrom } from "./lib/auth/session";

// The sign-in gate in front of every page and API route (Next 16 "proxy", formerly middleware;
// it runs on the Node.js runtime). It only checks that a valid session cookie is present:
// the role, and whether the account is still enabled, are checked against the database by
// authorize() in each route handler and requirePageRole() in pages (lib/auth).
// Public: /login, /api/health, /api/auth/* (sign-in itself) and static assets.

const PUBLIC_PATHS = ["/login", "/api/health"];

function isPublic(pathname: string): boolean {
  if (pathname.startsWith("/api/auth/") || pathname === "/api/auth") return true;
  return PUBLIC_PATHS.some((p) => pathname === p || pathname.startsWith(`${p}/`));
}

export async function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  if (isPublic(pathname)) return NextResponse.next();

  const claims = await decodeSession(
    sessionTokenFrom(parseCookieHeader(request.headers.get("cookie"))),
    authSecret(),
  );
  if (claims && !claims.disabled) {
    const headers = new Headers(request.headers);
    headers.set(PATH_HEADER, `${pathname}${search}`);
    return NextResponse.next({ request: { headers } });
  }
  if (pathname.startsWith("/api/")) {
    return NextResponse.json({ error: "sign in first" }, { status: 401 });
  }
  const login = new URL("/login", request.url);
  login.searchParams.set("callbackUrl", `${pathname}${search}`);
  return NextResponse.redirect(login);
}

export const config = {
  // Everything but Next's own assets and the favicon.
  matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"],
};
