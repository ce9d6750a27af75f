import { AutoRefresh } from "@/components/auto-refresh";
import { ClusterCard } from "@/components/cluster-card";
import { prisma } from "@/lib/db/client";
import { listClusterOverviews, listTopGroups } from "@/lib/db/queries/clusters";

export const dynamic = "force-dynamic";

export default async function OverviewPage() {
  const db = prisma();
  const clusters = await listClusterOverviews(db);
  const groups = await Promise.all(clusters.map((c) => listTopGroups(db, c.id)));
  return (
    <>
      <h1>Clusters</h1>
      <AutoRefresh intervalMs={5000} />
      {clusters.length === 0 ? (
        <div className="card">
          <p>No clusters configured yet.</p>
          <p className="muted">
            Set <code>GROUPWATCH_CLUSTERS</code>, for example{" "}
            <code>{`[{"name":"prod","brokers":"kafka-1:9092,kafka-2:9092"}]`}</code>, and start the collector.
          </p>
        </div>
      ) : (
        clusters.map((c, i) => <ClusterCard key={c.id} cluster={c} groups={groups[i] ?? []} />)
      )}
    </>
  );
}
