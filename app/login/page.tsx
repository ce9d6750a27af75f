import type { Metadata } from "next";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";

import { authorizeCookies } from "@/lib/auth/authorize";
import { oidcProviderInfo } from "@/lib/auth/options";
import { safeCallbackPath } from "@/lib/auth/redirect";

import { LoginForm } from "./login-form";
import styles from "./login.module.css";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in · groupwatch" };

// NextAuth sends errors back here as ?error=<code>.
const ERRORS: Record<string, string> = {
  CredentialsSignin: "Wrong username or password, or the account is disabled.",
  AccessDenied: "This account may not sign in here (disabled, or the name belongs to a local user).",
  SessionRequired: "Please sign in.",
};

type SearchParams = Promise<Record<string, string | string[] | undefined>>;
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export default async function LoginPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const callbackUrl = safeCallbackPath(first(params.callbackUrl));
  // Signed in and still enabled: nothing to do here. (A disabled user's cookie stays valid as a
  // JWT, so this asks the database rather than the cookie, or the two would redirect in a loop.)
  const session = await authorizeCookies((await cookies()).toString(), "viewer");
  if (session.ok) redirect(callbackUrl);

  const code = first(params.error);
  const error = code ? (ERRORS[code] ?? "Sign-in failed. Please try again.") : undefined;
  return (
    <div className={styles.wrap}>
      <LoginForm callbackUrl={callbackUrl} initialError={error} oidc={oidcProviderInfo()} />
    </div>
  );
}
