import type { Metadata } from "next";

import { Forbidden } from "@/lib/auth/forbidden";
import { requirePageRole } from "@/lib/auth/page";
import { listUsers } from "@/lib/auth/users";
import { prisma } from "@/lib/db/client";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Users · groupwatch" };

// Read-only list; changes go through the admin API (/api/users, see README).
export default async function UsersPage() {
  const auth = await requirePageRole("admin");
  if (!auth.ok) return <Forbidden need="admin" error={auth.error} />;
  const users = await listUsers(prisma());
  return (
    <>
      <h1>Users</h1>
      <div className="card">
        <table data-testid="users">
          <thead>
            <tr>
              <th scope="col">Username</th>
              <th scope="col">Name</th>
              <th scope="col">Role</th>
              <th scope="col">Sign-in</th>
              <th scope="col">Status</th>
              <th scope="col">Last sign-in</th>
            </tr>
          </thead>
          <tbody>
            {users.map((u) => (
              <tr key={u.id}>
                <td>{u.username}</td>
                <td>{u.name}</td>
                <td>{u.role}</td>
                <td>{u.provider === "oidc" ? "OIDC" : "password"}</td>
                <td>{u.disabled ? "disabled" : "active"}</td>
                <td>
                  {u.lastLoginAt
                    ? u.lastLoginAt.toISOString().replace("T", " ").slice(0, 19) + " UTC"
                    : "never"}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
