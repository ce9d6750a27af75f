import type { Metadata } from "next";

import { Forbidden } from "@/lib/auth/forbidden";
import { requirePageRole } from "@/lib/auth/page";

import { AlertsClient } from "./alerts-client";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Alerts · groupwatch" };

// Everyone signed in reads; the client shows changes by role, and the API enforces them again.
export default async function AlertsPage() {
  const auth = await requirePageRole("viewer");
  if (!auth.ok) return <Forbidden need="viewer" error={auth.error} />;
  return <AlertsClient role={auth.principal.role} />;
}
