import { describe, expect, test } from "vitest";

import { parseEnv } from "../../lib/env.js";

describe("parseEnv: sign-in variables", () => {
  test("defaults: admin user 'admin', no password, no secret, OIDC off with viewer as default role", () => {
    const e = parseEnv({});
    expect(e.GROUPWATCH_ADMIN_USER).toBe("admin");
    expect(e.GROUPWATCH_ADMIN_PASSWORD).toBeUndefined();
    expect(e.NEXTAUTH_SECRET).toBeUndefined();
    expect(e.AUTH_SECRET).toBeUndefined();
    expect(e.GROUPWATCH_OIDC_ISSUER).toBeUndefined();
    expect(e.GROUPWATCH_OIDC_DEFAULT_ROLE).toBe("viewer");
    expect(e.GROUPWATCH_OIDC_NAME).toBe("Single sign-on");
  });

  test("a complete OIDC configuration", () => {
    const e = parseEnv({
      GROUPWATCH_OIDC_ISSUER: "https://id.example.com/realms/ops",
      GROUPWATCH_OIDC_CLIENT_ID: "groupwatch",
      GROUPWATCH_OIDC_CLIENT_SECRET: "s3cret",
      GROUPWATCH_OIDC_ROLE_CLAIM: "groupwatch_role",
      GROUPWATCH_OIDC_DEFAULT_ROLE: "operator",
    });
    expect(e.GROUPWATCH_OIDC_ISSUER).toBe("https://id.example.com/realms/ops");
    expect(e.GROUPWATCH_OIDC_ROLE_CLAIM).toBe("groupwatch_role");
    expect(e.GROUPWATCH_OIDC_DEFAULT_ROLE).toBe("operator");
  });

  test("empty strings count as unset", () => {
    const e = parseEnv({ GROUPWATCH_ADMIN_PASSWORD: "", GROUPWATCH_OIDC_ISSUER: "", NEXTAUTH_SECRET: "" });
    expect(e.GROUPWATCH_ADMIN_PASSWORD).toBeUndefined();
    expect(e.GROUPWATCH_OIDC_ISSUER).toBeUndefined();
  });

  test.each([
    {
      label: "a short admin password",
      vars: { GROUPWATCH_ADMIN_PASSWORD: "short" },
      error: /GROUPWATCH_ADMIN_PASSWORD/,
    },
    {
      label: "an admin name with spaces",
      vars: { GROUPWATCH_ADMIN_USER: "the admin" },
      error: /GROUPWATCH_ADMIN_USER/,
    },
    { label: "a short NEXTAUTH_SECRET", vars: { NEXTAUTH_SECRET: "tiny" }, error: /NEXTAUTH_SECRET/ },
    { label: "a short AUTH_SECRET", vars: { AUTH_SECRET: "tiny" }, error: /AUTH_SECRET/ },
    {
      label: "an issuer that is no URL",
      vars: {
        GROUPWATCH_OIDC_ISSUER: "id.example.com",
        GROUPWATCH_OIDC_CLIENT_ID: "a",
        GROUPWATCH_OIDC_CLIENT_SECRET: "b",
      },
      error: /GROUPWATCH_OIDC_ISSUER/,
    },
    {
      label: "an unknown default role",
      vars: { GROUPWATCH_OIDC_DEFAULT_ROLE: "root" },
      error: /GROUPWATCH_OIDC_DEFAULT_ROLE/,
    },
    {
      label: "an issuer without client",
      vars: { GROUPWATCH_OIDC_ISSUER: "https://id.example.com" },
      error: /together/,
    },
    {
      label: "a client secret without issuer",
      vars: { GROUPWATCH_OIDC_CLIENT_SECRET: "x" },
      error: /together/,
    },
  ])("rejects $label", ({ vars, error }) => {
    expect(() => parseEnv(vars)).toThrow(error);
  });
});
