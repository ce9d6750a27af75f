import type { Metadata } from "next";
import { Suspense } from "react";

import { Skeleton } from "@/components/feedback";
import { decodeSegment } from "@/components/route-segment";
import { Forbidden } from "@/lib/auth/forbidden";
import { requirePageRole } from "@/lib/auth/page";

import { ClusterPage } from "./cluster-client";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ cluster: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { cluster } = await params;
  return { title: `${decodeSegment(cluster).slice(0, 80)} · groupwatch` };
}

export default async function Page({ params }: Params) {
  const auth = await requirePageRole("viewer");
  if (!auth.ok) return <Forbidden need="viewer" error={auth.error} />;
  const { cluster } = await params;
  return (
    <Suspense fallback={<Skeleton rows={8} />}>
      <ClusterPage cluster={decodeSegment(cluster)} />
    </Suspense>
  );
}
