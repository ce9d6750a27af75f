// Roles, weakest first: every role can do what the ones before it can.
//   viewer   reads everything
//   operator + silences alerts, sends test webhooks
//   admin    + clusters, alert rules, webhooks, users
// Pure: no framework or I/O imports, so the client bundle and the tests can use it.

export const ROLES = ["viewer", "operator", "admin"] as const;

export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

/** True when `have` grants at least what `need` does. */
export function roleAtLeast(have: Role, need: Role): boolean {
  return ROLES.indexOf(have) >= ROLES.indexOf(need);
}

/** The strongest role named in an IdP claim (a string, or a list of strings); null if none. */
export function roleFromClaim(claim: unknown): Role | null {
  const values = Array.isArray(claim) ? (claim as unknown[]) : [claim];
  let best: Role | null = null;
  for (const v of values) {
    const name = typeof v === "string" ? v.trim().toLowerCase() : undefined;
    if (isRole(name) && (best === null || roleAtLeast(name, best))) best = name;
  }
  return best;
}
