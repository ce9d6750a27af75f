import type { Metadata } from "next";
import { Suspense } from "react";

import { Skeleton } from "@/components/feedback";
import { Forbidden } from "@/lib/auth/forbidden";
import { requirePageRole } from "@/lib/auth/page";

import { ForensicsClient } from "./forensics-client";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Forensics · groupwatch" };

export default async function ForensicsPage() {
  const auth = await requirePageRole("viewer");
  if (!auth.ok) return <Forbidden need="viewer" error={auth.error} />;
  // The client reads cluster, window and groups from the URL (useSearchParams).
  return (
    <Suspense fallback={<Skeleton rows={6} />}>
      <ForensicsClient />
    </Suspense>
  );
}
