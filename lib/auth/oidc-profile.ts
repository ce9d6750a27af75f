import { ZUsername } from "../env.js";

/** An IdP's name for a user (preferred_username, else email, else sub), reduced to the
 *  characters usernames may hold; null when nothing usable is left. */
export function oidcUsername(profile: Record<string, unknown>): string | null {
  const candidate = [profile.preferred_username, profile.email, profile.sub].find(
    (v): v is string => typeof v === "string" && v.length > 0,
  );
  if (!candidate) return null;
  const cleaned = candidate.replace(/[^\w.@+-]/g, "_").slice(0, 200);
  return ZUsername.safeParse(cleaned).success ? cleaned : null;
}
