import type { Metadata } from "next";

import { Forbidden } from "@/lib/auth/forbidden";
import { requirePageRole } from "@/lib/auth/page";

import { SettingsClient } from "./settings-client";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Settings · groupwatch" };

// Clusters, users and roles: admins only (the API checks every change again).
export default async function SettingsPage() {
  const auth = await requirePageRole("admin");
  if (!auth.ok) return <Forbidden need="admin" error={auth.error} />;
  return <SettingsClient me={auth.principal.username} />;
}
