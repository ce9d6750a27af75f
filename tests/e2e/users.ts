// The users the e2e global setup creates (with createUser from lib/auth) in its own database.
export const E2E_USERS = {
  admin: { username: "e2e-admin", password: "e2e admin password", role: "admin" },
  viewer: { username: "e2e-viewer", password: "e2e viewer password", role: "viewer" },
  /** Disabled by a test halfway through. */
  operator: { username: "e2e-operator", password: "e2e operator password", role: "operator" },
} as const;
