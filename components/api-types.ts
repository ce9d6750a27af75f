// Response shapes of the JSON API as the browser sees them: the services' return types with
// Dates as ISO strings and BigInts as decimal strings (lib/api/handler.ts toJson). Type-only
// imports: nothing of the server code reaches the client bundle.
import type { getCluster, listClusters } from "@/lib/api/clusters";
import type { getGroup, listClusterGroups } from "@/lib/api/groups";
import type { listIncidents } from "@/lib/api/incidents";
import type { getLag } from "@/lib/api/lag";
import type { getRebalanceStats } from "@/lib/api/stats";
import type { getTimeline } from "@/lib/api/timeline";

export type Json<T> = T extends Date
  ? string
  : T extends bigint
    ? string
    : T extends (infer U)[]
      ? Json<U>[]
      : T extends object
        ? { [K in keyof T]: Json<T[K]> }
        : T;

type Api<F extends (...args: never[]) => Promise<unknown>> = Json<Awaited<ReturnType<F>>>;

export type ClustersResponse = Api<typeof listClusters>;
export type ClusterOverview = ClustersResponse["clusters"][number];
export type ClusterResponse = Api<typeof getCluster>;
export type ClusterDetail = ClusterResponse["cluster"];
export type GroupsResponse = Api<typeof listClusterGroups>;
export type GroupRow = GroupsResponse["groups"][number];
export type GroupResponse = Api<typeof getGroup>;
export type MemberRow = GroupResponse["members"][number];
export type IncidentsResponse = Api<typeof listIncidents>;
export type Incident = IncidentsResponse["incidents"][number];
export type TimelineResponse = Api<typeof getTimeline>;
export type EpisodeRow = TimelineResponse["episodes"][number];
export type SessionRow = TimelineResponse["sessions"][number];
export type LagResponse = Api<typeof getLag>;
export type RebalanceStats = Api<typeof getRebalanceStats>;

/** Path of a cluster's page or API resource; names are encoded, never interpolated raw. */
export const clusterPath = (cluster: string) => `/clusters/${encodeURIComponent(cluster)}`;
export const groupPath = (cluster: string, group: string) =>
  `${clusterPath(cluster)}/groups/${encodeURIComponent(group)}`;
export const apiPath = (path: string) => `/api${path}`;
