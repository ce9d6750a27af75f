"use client";

import Link from "next/link";

import {
  clusterPath,
  groupPath,
  type ClustersResponse,
  type IncidentsResponse,
  type RebalanceStats,
} from "./api-types";
import { ClusterCard } from "./cluster-card";
import { EmptyState } from "./feedback";
import { Loadable } from "./loadable";
import { Panel } from "./panel";
import { RebalanceChart } from "./rebalance-chart";
import { Time } from "./time";
import { LIVE_MS, useApi } from "./use-api";

const DAY = 24 * 3_600_000;

/** The overview: every cluster's health and groups, open incidents, rebalances in the last 24 h. */
export function Overview() {
  const clusters = useApi<ClustersResponse>(["clusters"], "/api/clusters");
  const incidents = useApi<IncidentsResponse>(["incidents", "open"], "/api/incidents?state=open&limit=50");
  const stats = useApi<RebalanceStats>(
    ["stats", "rebalances", "24h"],
    () => `/api/stats/rebalances?from=${Date.now() - DAY}&to=${Date.now()}&bucket=3600`,
    { refetchMs: 6 * LIVE_MS },
  );
  return (
    <>
      <div className="page-head">
        <h1>Clusters</h1>
      </div>
      <Loadable q={clusters} rows={4} height="1.4rem">
        {(c) =>
          c.clusters.length === 0 ? (
            <div className="card">
              <EmptyState title="No clusters configured yet">
                Set <code>GROUPWATCH_CLUSTERS</code>, for example{" "}
                <code>{`[{"name":"prod","brokers":"kafka-1:9092,kafka-2:9092"}]`}</code>, and start the
                collector.
              </EmptyState>
            </div>
          ) : (
            c.clusters.map((x) => <ClusterCard key={x.id} cluster={x} />)
          )
        }
      </Loadable>
      <div className="grid-2">
        <Panel
          title="Rebalances per hour, last 24 h"
          fetching={stats.isFetching}
          actions={stats.data ? <span className="muted small">{stats.data.total} in total</span> : null}
        >
          <Loadable q={stats} rows={1} height="160px">
            {(s) => <RebalanceChart stats={s} />}
          </Loadable>
        </Panel>
        <Panel
          title="Open incidents"
          fetching={incidents.isFetching}
          testId="open-incidents"
          actions={
            <Link href="/alerts" className="small">
              Alerts →
            </Link>
          }
        >
          <Loadable q={incidents} rows={3}>
            {(i) =>
              i.incidents.length === 0 ? (
                <EmptyState title="No open incidents" />
              ) : (
                <div className="table-wrap scroll" style={{ maxHeight: 220 }}>
                  <table aria-label="Open incidents">
                    <thead>
                      <tr>
                        <th>Severity</th>
                        <th>Cluster / group</th>
                        <th>Kind</th>
                        <th>Summary</th>
                        <th>Opened</th>
                      </tr>
                    </thead>
                    <tbody>
                      {i.incidents.map((x) => (
                        <tr key={x.id}>
                          <td>
                            <span className={`badge sev-${x.severity}`}>{x.severity}</span>
                          </td>
                          <td>
                            <Link href={clusterPath(x.cluster)} className="small">
                              {x.cluster}
                            </Link>{" "}
                            /{" "}
                            <Link href={groupPath(x.cluster, x.groupId)} className="id-link">
                              <span className="truncate mono" style={{ maxWidth: "14rem" }} title={x.groupId}>
                                {x.groupId}
                              </span>
                            </Link>
                          </td>
                          <td>{x.kind}</td>
                          <td>
                            <span className="truncate" style={{ maxWidth: "16rem" }} title={x.summary}>
                              {x.summary}
                            </span>
                          </td>
                          <td>
                            <Time iso={x.openedAt} relative />
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )
            }
          </Loadable>
        </Panel>
      </div>
    </>
  );
}
