import type { Metadata } from "next";
import { Suspense } from "react";

import { Skeleton } from "@/components/feedback";
import { decodeSegment } from "@/components/route-segment";
import { Forbidden } from "@/lib/auth/forbidden";
import { requirePageRole } from "@/lib/auth/page";

import { GroupPage } from "./group-client";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ cluster: string; group: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { group } = await params;
  return { title: `${decodeSegment(group).slice(0, 80)} · groupwatch` };
}

// Group ids may hold any character: links encode the segment with encodeURIComponent.
export default async function Page({ params }: Params) {
  const auth = await requirePageRole("viewer");
  if (!auth.ok) return <Forbidden need="viewer" error={auth.error} />;
  const { cluster, group } = await params;
  return (
    <Suspense fallback={<Skeleton rows={6} />}>
      <GroupPage cluster={decodeSegment(cluster)} group={decodeSegment(group)} />
    </Suspense>
  );
}
