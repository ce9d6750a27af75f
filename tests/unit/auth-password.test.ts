import { describe, expect, test } from "vitest";

import { generatePassword, hashPassword, verifyPassword } from "../../lib/auth/password";

describe("password hashing", () => {
  test("a hash verifies its own password and no other", async () => {
    const hash = await hashPassword("correct horse battery staple");
    expect(hash).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(await verifyPassword("correct horse battery staple", hash)).toBe(true);
    expect(await verifyPassword("correct horse battery stapl", hash)).toBe(false);
    expect(await verifyPassword("Correct horse battery staple", hash)).toBe(false);
  });

  test("every hash has its own salt", async () => {
    const [a, b] = await Promise.all([hashPassword("same password"), hashPassword("same password")]);
    expect(a).not.toBe(b);
    expect(a.split("$")[4]).not.toBe(b.split("$")[4]);
    expect(await verifyPassword("same password", a)).toBe(true);
    expect(await verifyPassword("same password", b)).toBe(true);
  });

  test("unicode passwords are normalized (NFKC) before hashing", async () => {
    const hash = await hashPassword("caf\u00e9-pass");
    expect(await verifyPassword("cafe\u0301-pass", hash)).toBe(true);
  });

  test.each([
    { label: "an empty string", stored: "" },
    { label: "another scheme", stored: "bcrypt$2b$10$abc" },
    { label: "too few parts", stored: "scrypt$16384$8$1$c2FsdA==" },
    { label: "a truncated key", stored: "scrypt$16384$8$1$c2FsdA==$a2V5" },
    { label: "absurd cost parameters", stored: `scrypt$${2 ** 30}$8$1$c2FsdA==$${"A".repeat(43)}=` },
    { label: "non-numeric parameters", stored: "scrypt$x$8$1$c2FsdA==$a2V5" },
  ])("a malformed stored hash ($label) never verifies", async ({ stored }) => {
    expect(await verifyPassword("anything", stored)).toBe(false);
  });

  test("empty and oversized passwords are refused", async () => {
    await expect(hashPassword("")).rejects.toThrow(/1 to 200/);
    await expect(hashPassword("x".repeat(201))).rejects.toThrow(/1 to 200/);
    const hash = await hashPassword("something");
    expect(await verifyPassword("", hash)).toBe(false);
  });

  test("generated passwords are long, URL-safe and distinct", () => {
    const a = generatePassword();
    expect(a).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(generatePassword()).not.toBe(a);
  });
});
