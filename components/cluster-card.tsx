"use client";

import Link from "next/link";

import { clusterPath, type ClusterOverview, type ClusterResponse } from "./api-types";
import { formatDuration } from "./format";
import { Loadable } from "./loadable";
import { HealthBadge, StateBadge } from "./state-badge";
import { Time } from "./time";
import { useApi } from "./use-api";

const STATE_ORDER = [
  "Stable",
  "PreparingRebalance",
  "CompletingRebalance",
  "Assigning",
  "Reconciling",
  "Empty",
  "Dead",
  "Unknown",
];

/** A cluster's health (poll state, last poll, duration, errors) and its groups by state. Names
 *  and errors come from operators and brokers: rendered as text only. */
export function ClusterCard({ cluster }: { cluster: ClusterOverview }) {
  const detail = useApi<ClusterResponse>(
    ["clusters", cluster.name],
    `/api/clusters/${encodeURIComponent(cluster.name)}`,
  );
  const status = cluster.status;
  const state = !cluster.enabled ? "disabled" : (status?.state ?? "pending");
  const href = clusterPath(cluster.name);
  return (
    <section className="card" data-testid="cluster" data-cluster-name={cluster.name}>
      <header className="panel-head">
        <h2>
          <Link href={href}>{cluster.name}</Link>
          <HealthBadge state={state} />
        </h2>
        <div className="panel-actions">
          <Link href={href} className="small">
            Groups →
          </Link>
        </div>
      </header>
      <dl className="stats">
        <div>
          <dt>Last poll</dt>
          <dd>{status ? <Time iso={status.lastPollAt} relative /> : <span className="muted">never</span>}</dd>
        </div>
        <div>
          <dt>Poll took</dt>
          <dd className="mono">
            {status ? formatDuration(status.lastPollDurationMs) : "–"}
            <span className="muted small"> / every {formatDuration(cluster.pollIntervalMs)}</span>
          </dd>
        </div>
        <div>
          <dt>Brokers</dt>
          <dd className="mono">{status ? status.brokers.length : "–"}</dd>
        </div>
        <div>
          <dt>Topics</dt>
          <dd className="mono">{status?.topicCount ?? "–"}</dd>
        </div>
        <div>
          <dt>Groups</dt>
          <dd className="mono">{status?.groupCount ?? "–"}</dd>
        </div>
        <div>
          <dt>Failures in a row</dt>
          <dd className="mono">{status?.consecutiveFailures ?? 0}</dd>
        </div>
        <div>
          <dt>Last success</dt>
          <dd>
            {status?.lastSuccessAt ? (
              <Time iso={status.lastSuccessAt} relative />
            ) : (
              <span className="muted">–</span>
            )}
          </dd>
        </div>
      </dl>
      <div className="muted small" style={{ margin: "0.4rem 0" }}>
        <span className="mono">{cluster.bootstrap.join(", ")}</span>
        {" · "}
        {cluster.auth.sasl ? `SASL ${cluster.auth.sasl}` : "no auth"}
        {cluster.auth.tls ? " + TLS" : ""}
        {status?.kafkaClusterId ? ` · id ${status.kafkaClusterId}` : ""}
      </div>
      {status?.lastError ? (
        <p className="error-text" role="alert">
          {status.consecutiveFailures} failed poll{status.consecutiveFailures === 1 ? "" : "s"} in a row:{" "}
          {status.lastError}
        </p>
      ) : null}
      <Loadable q={detail} rows={1}>
        {(d) => (
          <GroupsByState
            cluster={cluster.name}
            byState={d.cluster.groupsByState}
            incidents={d.cluster.counts.openIncidents}
          />
        )}
      </Loadable>
    </section>
  );
}

function GroupsByState({
  cluster,
  byState,
  incidents,
}: {
  cluster: string;
  byState: Record<string, number>;
  incidents: number;
}) {
  const states = Object.keys(byState).sort((a, b) => {
    const ia = STATE_ORDER.indexOf(a);
    const ib = STATE_ORDER.indexOf(b);
    return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib);
  });
  return (
    <div className="chips" style={{ alignItems: "center" }} data-testid="groups-by-state">
      <span className="muted small">Groups by state:</span>
      {states.length === 0 ? <span className="muted small">none yet</span> : null}
      {states.map((s) => (
        <Link key={s} href={`${clusterPath(cluster)}?state=${encodeURIComponent(s)}`} className="state-count">
          <StateBadge state={s} /> <span className="mono">{byState[s]}</span>
        </Link>
      ))}
      {incidents > 0 ? (
        <Link href="/alerts" className="small" style={{ marginLeft: "auto" }}>
          {incidents} open incident{incidents === 1 ? "" : "s"}
        </Link>
      ) : null}
    </div>
  );
}
