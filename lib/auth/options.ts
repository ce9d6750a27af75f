import type { AuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import type { OAuthConfig } from "next-auth/providers/oauth";
import { z } from "zod";

import { prisma } from "../db/client";
import { env, ZUsername } from "../env.js";
import { oidcUsername } from "./oidc-profile";
import { roleFromClaim } from "./roles";
import { authSecret } from "./secret";
import { ROLE_REFRESH_MS, SESSION_MAX_AGE_S, ZSessionClaims } from "./session";
import { createAdminIfMissing, findUser, upsertOidcUser, verifyCredentials } from "./users";

// NextAuth v4 configuration: JWT sessions (no adapter tables), the local credentials provider
// and, when GROUPWATCH_OIDC_* are set, one generic OpenID Connect provider. Built on first use
// (not at import), so `next build` needs no secret and no database.

export const OIDC_PROVIDER_ID = "oidc";

const ZCredentials = z.object({ username: ZUsername, password: z.string().min(1).max(200) });

/** What the sign-in page needs to know about the providers. */
export function oidcProviderInfo(): { id: string; name: string } | null {
  const e = env();
  return e.GROUPWATCH_OIDC_ISSUER ? { id: OIDC_PROVIDER_ID, name: e.GROUPWATCH_OIDC_NAME } : null;
}

// With GROUPWATCH_ADMIN_PASSWORD set, a web server started on its own (`npm run web`) creates
// the local admin too; generating a password is left to the launcher, which prints it.
let adminReady: Promise<unknown> | undefined;
function ensureAdminFromEnv(): Promise<unknown> {
  const e = env();
  if (!e.GROUPWATCH_ADMIN_PASSWORD) return Promise.resolve();
  adminReady ??= createAdminIfMissing(prisma(), e.GROUPWATCH_ADMIN_USER, e.GROUPWATCH_ADMIN_PASSWORD).catch(
    (err: unknown) => {
      adminReady = undefined;
      throw err;
    },
  );
  return adminReady;
}

function oidcProvider(): OAuthConfig<Record<string, unknown>> | null {
  const e = env();
  if (!e.GROUPWATCH_OIDC_ISSUER || !e.GROUPWATCH_OIDC_CLIENT_ID || !e.GROUPWATCH_OIDC_CLIENT_SECRET)
    return null;
  const issuer = e.GROUPWATCH_OIDC_ISSUER.replace(/\/$/, "");
  return {
    id: OIDC_PROVIDER_ID,
    name: e.GROUPWATCH_OIDC_NAME,
    type: "oauth",
    wellKnown: `${issuer}/.well-known/openid-configuration`,
    issuer,
    clientId: e.GROUPWATCH_OIDC_CLIENT_ID,
    clientSecret: e.GROUPWATCH_OIDC_CLIENT_SECRET,
    authorization: { params: { scope: "openid profile email" } },
    idToken: true,
    checks: ["pkce", "state"],
    profile(profile) {
      const username = oidcUsername(profile) ?? "";
      const name = typeof profile.name === "string" ? profile.name : username;
      return { id: username, name, username, claims: profile };
    },
  };
}

function credentialsProvider() {
  return CredentialsProvider({
    id: "credentials",
    name: "Username and password",
    credentials: {
      username: { label: "Username", type: "text" },
      password: { label: "Password", type: "password" },
    },
    async authorize(raw) {
      const parsed = ZCredentials.safeParse(raw);
      if (!parsed.success) return null;
      await ensureAdminFromEnv();
      const user = await verifyCredentials(prisma(), parsed.data.username, parsed.data.password);
      return user ? { id: user.id, name: user.name || user.username, username: user.username } : null;
    },
  });
}

type SignInUser = { username?: unknown; claims?: unknown };

let cached: AuthOptions | undefined;

export function authOptions(): AuthOptions {
  if (cached) return cached;
  const e = env();
  const oidc = oidcProvider();
  cached = {
    secret: authSecret(),
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_S, updateAge: 60 * 60 },
    jwt: { maxAge: SESSION_MAX_AGE_S },
    pages: { signIn: "/login", error: "/login" },
    providers: oidc ? [credentialsProvider(), oidc] : [credentialsProvider()],
    callbacks: {
      async signIn({ user, account }) {
        if (account?.provider !== OIDC_PROVIDER_ID) return true;
        const { username, claims } = user as SignInUser;
        if (typeof username !== "string" || !username) return false;
        const profile = (claims ?? {}) as Record<string, unknown>;
        const stored = await upsertOidcUser(prisma(), {
          username,
          name: typeof profile.name === "string" ? profile.name : "",
          claimRole: e.GROUPWATCH_OIDC_ROLE_CLAIM
            ? roleFromClaim(profile[e.GROUPWATCH_OIDC_ROLE_CLAIM])
            : null,
          defaultRole: e.GROUPWATCH_OIDC_DEFAULT_ROLE,
        });
        return stored !== null;
      },
      // On sign-in the token gets the username; from then on the role (and whether the account
      // is still enabled) is re-read from the database at most every ROLE_REFRESH_MS.
      async jwt({ token, user }) {
        const username = user ? (user as SignInUser).username : token.username;
        if (typeof username !== "string") return token;
        const known = ZSessionClaims.safeParse(token);
        if (!user && known.success && Date.now() - known.data.roleCheckedAt < ROLE_REFRESH_MS) return token;
        const row = await findUser(prisma(), username);
        return {
          ...token,
          username,
          role: row?.role ?? "viewer",
          disabled: !row || row.disabled,
          roleCheckedAt: Date.now(),
        };
      },
      session({ session, token }) {
        const claims = ZSessionClaims.safeParse(token);
        return {
          ...session,
          user: claims.success
            ? {
                name: session.user?.name ?? claims.data.username,
                username: claims.data.username,
                role: claims.data.role,
              }
            : undefined,
        };
      },
    },
  };
  return cached;
}
