import { z } from "zod";

import type { PrismaClient } from "../db/client";
import { ZRole, ZUsername } from "../env.js";
import { burnPasswordCheck, hashPassword, verifyPassword } from "./password";
import { roleAtLeast, type Role } from "./roles";

// Every query on app_user. Route handlers, the NextAuth callbacks, the launcher and the tests
// call these; nothing else touches the table.

export const ZPassword = z.string().min(8, "at least 8 characters").max(200);

export const ZCreateUser = z.strictObject({
  username: ZUsername,
  name: z.string().max(200).default(""),
  password: ZPassword,
  role: ZRole,
});
export type CreateUser = z.input<typeof ZCreateUser>;

export const ZUpdateUser = z
  .strictObject({
    name: z.string().max(200).optional(),
    role: ZRole.optional(),
    disabled: z.boolean().optional(),
    password: ZPassword.optional(),
  })
  .refine((u) => Object.values(u).some((v) => v !== undefined), "nothing to change");
export type UpdateUser = z.infer<typeof ZUpdateUser>;

/** A user as the API shows it: never the password hash. */
export interface PublicUser {
  id: string;
  username: string;
  name: string;
  role: Role;
  provider: "credentials" | "oidc";
  disabled: boolean;
  createdAt: Date;
  lastLoginAt: Date | null;
}

/** A refusal with the HTTP status it maps to. */
export class UserError extends Error {
  constructor(
    readonly status: 400 | 404 | 409,
    message: string,
  ) {
    super(message);
  }
}

const publicFields = {
  id: true,
  username: true,
  name: true,
  role: true,
  provider: true,
  disabled: true,
  createdAt: true,
  lastLoginAt: true,
} as const;

type Row = { role: string; provider: string } & Omit<PublicUser, "role" | "provider">;
const toPublic = (row: Row): PublicUser => ({
  ...row,
  role: ZRole.catch("viewer").parse(row.role),
  provider: row.provider === "oidc" ? "oidc" : "credentials",
});

function isUniqueViolation(e: unknown): boolean {
  return typeof e === "object" && e !== null && (e as { code?: unknown }).code === "P2002";
}

/** Creates a credentials user (also what tests use to get users with known passwords). */
export async function createUser(db: PrismaClient, input: CreateUser): Promise<PublicUser> {
  const u = ZCreateUser.parse(input);
  try {
    const row = await db.appUser.create({
      data: {
        username: u.username,
        name: u.name,
        role: u.role,
        provider: "credentials",
        passwordHash: await hashPassword(u.password),
      },
      select: publicFields,
    });
    return toPublic(row);
  } catch (e) {
    if (isUniqueViolation(e)) throw new UserError(409, `user "${u.username}" already exists`);
    throw e;
  }
}

export async function listUsers(db: PrismaClient): Promise<PublicUser[]> {
  const rows = await db.appUser.findMany({ select: publicFields, orderBy: { username: "asc" } });
  return rows.map(toPublic);
}

/** The user behind a session, or null when unknown. One indexed lookup. */
export async function findUser(db: PrismaClient, username: string): Promise<PublicUser | null> {
  const row = await db.appUser.findUnique({ where: { username }, select: publicFields });
  return row ? toPublic(row) : null;
}

/** The enabled credentials user with this password, or null; same cost whether or not it exists. */
export async function verifyCredentials(
  db: PrismaClient,
  username: string,
  password: string,
): Promise<PublicUser | null> {
  const row = await db.appUser.findUnique({ where: { username } });
  if (!row?.passwordHash || row.provider !== "credentials") {
    await burnPasswordCheck(password);
    return null;
  }
  const ok = await verifyPassword(password, row.passwordHash);
  if (!ok || row.disabled) return null;
  await db.appUser.update({ where: { id: row.id }, data: { lastLoginAt: new Date() } });
  return toPublic(row);
}

/**
 * An OIDC user on sign-in: created with the claim's role (or the default role) the first time;
 * later sign-ins take the claim's role when the IdP sends one, and keep the stored role otherwise.
 * Returns null for a disabled user, or one whose username belongs to a credentials user.
 */
export async function upsertOidcUser(
  db: PrismaClient,
  input: { username: string; name: string; claimRole: Role | null; defaultRole: Role },
): Promise<PublicUser | null> {
  const existing = await db.appUser.findUnique({ where: { username: input.username } });
  if (existing && (existing.disabled || existing.provider !== "oidc")) return null;
  const row = existing
    ? await db.appUser.update({
        where: { id: existing.id },
        data: {
          name: input.name || existing.name,
          lastLoginAt: new Date(),
          ...(input.claimRole ? { role: input.claimRole } : {}),
        },
        select: publicFields,
      })
    : await db.appUser.create({
        data: {
          username: input.username,
          name: input.name,
          role: input.claimRole ?? input.defaultRole,
          provider: "oidc",
          lastLoginAt: new Date(),
        },
        select: publicFields,
      });
  return toPublic(row);
}

// An admin can't remove the last enabled admin (themselves included): nobody could fix that
// from the dashboard afterwards. Runs in a serializable transaction with the change.
async function assertAdminRemains(tx: Pick<PrismaClient, "appUser">, excludingId: string): Promise<void> {
  const admins = await tx.appUser.count({
    where: { role: "admin", disabled: false, id: { not: excludingId } },
  });
  if (admins === 0) throw new UserError(409, "this is the last enabled admin");
}

export async function updateUser(db: PrismaClient, id: string, patch: UpdateUser): Promise<PublicUser> {
  return db.$transaction(
    async (tx) => {
      const row = await tx.appUser.findUnique({ where: { id } });
      if (!row) throw new UserError(404, "no such user");
      const losesAdmin =
        row.role === "admin" &&
        !row.disabled &&
        ((patch.role && patch.role !== "admin") || patch.disabled === true);
      if (losesAdmin) await assertAdminRemains(tx, id);
      if (patch.password !== undefined && row.provider !== "credentials") {
        throw new UserError(400, "OIDC users have no password here");
      }
      const updated = await tx.appUser.update({
        where: { id },
        data: {
          ...(patch.name !== undefined ? { name: patch.name } : {}),
          ...(patch.role !== undefined ? { role: patch.role } : {}),
          ...(patch.disabled !== undefined ? { disabled: patch.disabled } : {}),
          ...(patch.password !== undefined ? { passwordHash: await hashPassword(patch.password) } : {}),
        },
        select: publicFields,
      });
      return toPublic(updated);
    },
    { isolationLevel: "Serializable" },
  );
}

export async function deleteUser(db: PrismaClient, id: string): Promise<void> {
  await db.$transaction(
    async (tx) => {
      const row = await tx.appUser.findUnique({ where: { id } });
      if (!row) throw new UserError(404, "no such user");
      if (row.role === "admin" && !row.disabled) await assertAdminRemains(tx, id);
      await tx.appUser.delete({ where: { id } });
    },
    { isolationLevel: "Serializable" },
  );
}

/** Creates an admin with this password unless a user of that name exists; true if created. */
export async function createAdminIfMissing(
  db: PrismaClient,
  username: string,
  password: string,
): Promise<boolean> {
  if (await db.appUser.findUnique({ where: { username }, select: { id: true } })) return false;
  try {
    await createUser(db, { username, password, role: "admin", name: "Administrator" });
    return true;
  } catch (e) {
    // Two processes starting at once: the other one created it.
    if (e instanceof UserError && e.status === 409) return false;
    throw e;
  }
}

/** Whether a user's current role grants `need` (a convenience for callers holding a user). */
export const userHasRole = (user: Pick<PublicUser, "role" | "disabled">, need: Role) =>
  !user.disabled && roleAtLeast(user.role, need);
