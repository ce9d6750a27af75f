import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";

import { GET as listUsersRoute, POST as createUserRoute } from "../../app/api/users/route";
import { DELETE as deleteUserRoute, PATCH as patchUserRoute } from "../../app/api/users/[id]/route";
import { authorize } from "../../lib/auth/authorize";
import { ensureAdminUser } from "../../lib/auth/bootstrap";
import { encodeSession } from "../../lib/auth/session";
import { createUser, findUser, updateUser, UserError, verifyCredentials } from "../../lib/auth/users";
import type { Role } from "../../lib/auth/roles";
import { createPrisma, type PrismaClient } from "../../lib/db/client";
import { uniqueName } from "../fixtures/processes";

// authorize() and the users API against a real PostgreSQL. Each test creates its own users with
// unique names; rows of other tests are never touched. authorize() reads DATABASE_URL and the
// session secret through lib/env.js, which parses process.env on first use: set them first.

const secret = "integration-test-session-secret";
process.env.DATABASE_URL = inject("databaseUrl");
process.env.NEXTAUTH_SECRET = secret;

let db: PrismaClient;
const dataDir = mkdtempSync(path.join(os.tmpdir(), "groupwatch-auth-"));

beforeAll(() => {
  db = createPrisma(inject("databaseUrl"));
});
afterAll(async () => {
  await db.$disconnect();
  rmSync(dataDir, { recursive: true, force: true });
});

async function userWithSession(role: Role) {
  const user = await createUser(db, { username: uniqueName(`u-${role}`), password: "a good password", role });
  const token = await encodeSession({ username: user.username, role }, secret);
  return { user, cookie: `next-auth.session-token=${token}` };
}

const request = (cookie?: string, init: RequestInit = {}, url = "http://127.0.0.1/api/users") =>
  new Request(url, {
    ...init,
    headers: { ...(cookie ? { cookie } : {}), "content-type": "application/json" },
  });

describe("authorize()", () => {
  test("no cookie: 401", async () => {
    expect(await authorize(request(), "viewer")).toMatchObject({ ok: false, status: 401 });
  });

  test("a cookie sealed with another secret: 401", async () => {
    const { user } = await userWithSession("admin");
    const forged = await encodeSession({ username: user.username, role: "admin" }, "some-other-secret-value");
    expect(await authorize(request(`next-auth.session-token=${forged}`), "viewer")).toMatchObject({
      status: 401,
    });
  });

  test("a viewer: allowed what needs viewer, 403 for operator and admin", async () => {
    const { user, cookie } = await userWithSession("viewer");
    expect(await authorize(request(cookie), "viewer")).toEqual({
      ok: true,
      principal: { username: user.username, role: "viewer" },
    });
    expect(await authorize(request(cookie), "operator")).toMatchObject({ ok: false, status: 403 });
    expect(await authorize(request(cookie), "admin")).toMatchObject({ ok: false, status: 403 });
  });

  test("an operator: allowed viewer and operator, 403 for admin", async () => {
    const { cookie } = await userWithSession("operator");
    expect(await authorize(request(cookie), "viewer")).toMatchObject({ ok: true });
    expect(await authorize(request(cookie), "operator")).toMatchObject({ ok: true });
    expect(await authorize(request(cookie), "admin")).toMatchObject({ ok: false, status: 403 });
  });

  test("a user disabled after signing in: 401 at the next request, without re-login", async () => {
    const { user, cookie } = await userWithSession("operator");
    expect(await authorize(request(cookie), "viewer")).toMatchObject({ ok: true });
    await updateUser(db, user.id, { disabled: true });
    expect(await authorize(request(cookie), "viewer")).toMatchObject({ ok: false, status: 401 });
  });

  test("an admin demoted to viewer: the database's role counts, not the cookie's", async () => {
    const { user, cookie } = await userWithSession("admin");
    expect(await authorize(request(cookie), "admin")).toMatchObject({ ok: true });
    await updateUser(db, user.id, { role: "viewer" });
    expect(await authorize(request(cookie), "admin")).toMatchObject({ ok: false, status: 403 });
    expect(await authorize(request(cookie), "viewer")).toMatchObject({
      ok: true,
      principal: { role: "viewer" },
    });
  });

  test("a deleted user: 401", async () => {
    const { user, cookie } = await userWithSession("viewer");
    await db.appUser.delete({ where: { id: user.id } });
    expect(await authorize(request(cookie), "viewer")).toMatchObject({ ok: false, status: 401 });
  });
});

describe("credentials", () => {
  test("the right password signs in and records the time; wrong, unknown or disabled do not", async () => {
    const username = uniqueName("cred");
    const user = await createUser(db, { username, password: "right password", role: "viewer" });
    expect(await verifyCredentials(db, username, "wrong password")).toBeNull();
    expect(await verifyCredentials(db, uniqueName("nobody"), "right password")).toBeNull();
    expect(await verifyCredentials(db, username, "right password")).toMatchObject({
      username,
      role: "viewer",
    });
    expect((await findUser(db, username))?.lastLoginAt).toBeInstanceOf(Date);
    await updateUser(db, user.id, { disabled: true });
    expect(await verifyCredentials(db, username, "right password")).toBeNull();
  });

  test("a duplicate username is a 409 UserError", async () => {
    const username = uniqueName("dup");
    await createUser(db, { username, password: "password one", role: "viewer" });
    await expect(createUser(db, { username, password: "password two", role: "admin" })).rejects.toSatisfy(
      (e) => e instanceof UserError && e.status === 409,
    );
  });

  test("the local admin: generated once into admin-password (0600), never reset afterwards", async () => {
    const username = uniqueName("admin");
    const first = await ensureAdminUser(db, { username, password: undefined, dataDir });
    expect(first.created).toBe(true);
    expect(first.generatedPassword).toMatch(/^[\w-]{24}$/);
    const file = path.join(dataDir, "admin-password");
    expect(readFileSync(file, "utf8").trim()).toBe(first.generatedPassword);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(await verifyCredentials(db, username, first.generatedPassword!)).toMatchObject({ role: "admin" });

    const again = await ensureAdminUser(db, { username, password: "a different password", dataDir });
    expect(again).toEqual({ created: false, username });
    expect(await verifyCredentials(db, username, first.generatedPassword!)).not.toBeNull();
  });
});

describe("the users API (admin only)", () => {
  test("401 without a session, 403 for a viewer or operator", async () => {
    expect((await listUsersRoute(request())).status).toBe(401);
    for (const role of ["viewer", "operator"] as const) {
      const { cookie } = await userWithSession(role);
      const res = await listUsersRoute(request(cookie));
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ error: expect.stringMatching(/admin/) as unknown });
    }
  });

  test("an admin lists, creates, changes and deletes users", async () => {
    const { cookie } = await userWithSession("admin");
    const username = uniqueName("new");

    const bad = await createUserRoute(
      request(cookie, { method: "POST", body: JSON.stringify({ username, role: "root" }) }),
    );
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/role|password/);

    const created = await createUserRoute(
      request(cookie, {
        method: "POST",
        body: JSON.stringify({ username, password: "initial password", role: "viewer" }),
      }),
    );
    expect(created.status).toBe(201);
    const { user } = (await created.json()) as {
      user: { id: string; username: string; passwordHash?: string };
    };
    expect(user.username).toBe(username);
    expect(user).not.toHaveProperty("passwordHash");

    const listed = (await (await listUsersRoute(request(cookie))).json()) as {
      users: { username: string }[];
    };
    expect(listed.users.map((u) => u.username)).toContain(username);

    const ctx = { params: Promise.resolve({ id: user.id }) };
    const patched = await patchUserRoute(
      request(cookie, { method: "PATCH", body: JSON.stringify({ role: "operator", disabled: true }) }),
      ctx,
    );
    expect(patched.status).toBe(200);
    expect(await findUser(db, username)).toMatchObject({ role: "operator", disabled: true });

    const empty = await patchUserRoute(request(cookie, { method: "PATCH", body: "{}" }), ctx);
    expect(empty.status).toBe(400);

    expect((await deleteUserRoute(request(cookie, { method: "DELETE" }), ctx)).status).toBe(204);
    expect(await findUser(db, username)).toBeNull();
    expect((await deleteUserRoute(request(cookie, { method: "DELETE" }), ctx)).status).toBe(404);
  });
});
