import { describe, expect, test } from "vitest";

import { oidcUsername } from "../../lib/auth/oidc-profile";
import { safeCallbackPath } from "../../lib/auth/redirect";
import { isRole, roleAtLeast, roleFromClaim, ROLES, type Role } from "../../lib/auth/roles";

describe("role ordering: viewer < operator < admin", () => {
  test.each<{ have: Role; need: Role; expected: boolean }>([
    { have: "viewer", need: "viewer", expected: true },
    { have: "viewer", need: "operator", expected: false },
    { have: "viewer", need: "admin", expected: false },
    { have: "operator", need: "viewer", expected: true },
    { have: "operator", need: "operator", expected: true },
    { have: "operator", need: "admin", expected: false },
    { have: "admin", need: "viewer", expected: true },
    { have: "admin", need: "operator", expected: true },
    { have: "admin", need: "admin", expected: true },
  ])("$have may do what needs $need: $expected", ({ have, need, expected }) => {
    expect(roleAtLeast(have, need)).toBe(expected);
  });

  test("ROLES lists them weakest first", () => {
    expect(ROLES).toEqual(["viewer", "operator", "admin"]);
  });

  test.each([
    { value: "viewer", expected: true },
    { value: "Admin", expected: false },
    { value: "root", expected: false },
    { value: undefined, expected: false },
    { value: 2, expected: false },
  ])("isRole($value) is $expected", ({ value, expected }) => {
    expect(isRole(value)).toBe(expected);
  });
});

describe("roleFromClaim", () => {
  test.each([
    { label: "a role name", claim: "operator", expected: "operator" },
    { label: "a role name in capitals", claim: " ADMIN ", expected: "admin" },
    { label: "a list: the strongest wins", claim: ["staff", "viewer", "operator"], expected: "operator" },
    { label: "a list without roles", claim: ["staff", "dev"], expected: null },
    { label: "no claim", claim: undefined, expected: null },
    { label: "an object", claim: { role: "admin" }, expected: null },
  ])("$label → $expected", ({ claim, expected }) => {
    expect(roleFromClaim(claim)).toBe(expected);
  });
});

describe("safeCallbackPath", () => {
  test.each([
    { value: "/groups/x?range=1h", expected: "/groups/x?range=1h" },
    { value: "/", expected: "/" },
    { value: undefined, expected: "/" },
    { value: "https://evil.example/", expected: "/" },
    { value: "//evil.example/", expected: "/" },
    { value: "/\\evil.example", expected: "/" },
    { value: "javascript:alert(1)", expected: "/" },
    { value: "/login?callbackUrl=/login", expected: "/" },
  ])("$value → $expected", ({ value, expected }) => {
    expect(safeCallbackPath(value)).toBe(expected);
  });
});

describe("oidcUsername", () => {
  test.each([
    {
      label: "preferred_username first",
      profile: { preferred_username: "jdoe", email: "j@x.io", sub: "1" },
      expected: "jdoe",
    },
    { label: "then email", profile: { email: "j.doe+ops@x.io", sub: "1" }, expected: "j.doe+ops@x.io" },
    { label: "then sub, cleaned", profile: { sub: "auth0|12 34" }, expected: "auth0_12_34" },
    { label: "nothing usable", profile: { name: "J" }, expected: null },
  ])("$label", ({ profile, expected }) => {
    expect(oidcUsername(profile)).toBe(expected);
  });
});
