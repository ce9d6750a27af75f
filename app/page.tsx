import { Overview } from "@/components/overview";
import { Forbidden } from "@/lib/auth/forbidden";
import { requirePageRole } from "@/lib/auth/page";

export const dynamic = "force-dynamic";

// A thin server page: auth here, the live view (react-query polling the JSON API) in the client.
export default async function OverviewPage() {
  const auth = await requirePageRole("viewer");
  if (!auth.ok) return <Forbidden need="viewer" error={auth.error} />;
  return <Overview />;
}
