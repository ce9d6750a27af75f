import type { ClusterOverview, GroupRow } from "@/lib/db/queries/clusters";

import { RelativeTime } from "./relative-time";

// Names and errors come from operators and brokers: React escapes them; nothing here uses
// dangerouslySetInnerHTML.
export function ClusterCard({ cluster, groups }: { cluster: ClusterOverview; groups: GroupRow[] }) {
  const status = cluster.status;
  const state = !cluster.enabled ? "disabled" : (status?.state ?? "pending");
  return (
    <section className="card" data-testid="cluster" data-cluster-name={cluster.name}>
      <h2>
        <span>{cluster.name}</span>
        <span className={`badge ${state === "ok" ? "ok" : state === "error" ? "error" : "pending"}`}>
          {state === "pending" ? "waiting for first poll" : state}
        </span>
      </h2>
      <dl className="facts">
        <dt>Bootstrap</dt>
        <dd>{cluster.bootstrap.join(", ")}</dd>
        <dt>Auth</dt>
        <dd>
          {cluster.auth.sasl ? `SASL ${cluster.auth.sasl}` : "none"}
          {cluster.auth.tls ? " + TLS" : ""}
        </dd>
        <dt>Last poll</dt>
        <dd>
          {status ? (
            <>
              <RelativeTime iso={status.lastPollAt} /> ({status.lastPollDurationMs} ms, every{" "}
              {cluster.pollIntervalMs / 1000} s)
            </>
          ) : (
            "never"
          )}
        </dd>
        {status?.groupCount != null ? (
          <>
            <dt>Seen</dt>
            <dd>
              {status.groupCount} groups, {status.topicCount} topics ({status.requestCount} requests last
              poll)
            </dd>
          </>
        ) : null}
        {status?.kafkaClusterId ? (
          <>
            <dt>Cluster id</dt>
            <dd>{status.kafkaClusterId}</dd>
          </>
        ) : null}
      </dl>
      {status?.lastError ? (
        <p className="error-text" role="alert">
          {status.consecutiveFailures} failed poll{status.consecutiveFailures === 1 ? "" : "s"} in a row:{" "}
          {status.lastError}
        </p>
      ) : null}
      {status && status.brokers.length > 0 ? (
        <table aria-label={`Brokers of ${cluster.name}`}>
          <thead>
            <tr>
              <th>Node</th>
              <th>Host</th>
              <th>Port</th>
              <th>Role</th>
            </tr>
          </thead>
          <tbody>
            {status.brokers.map((b) => (
              <tr key={b.nodeId} data-testid="broker">
                <td>{b.nodeId}</td>
                <td>{b.host}</td>
                <td>{b.port}</td>
                <td>{b.nodeId === status.controllerId ? "controller" : ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {groups.length > 0 ? (
        <table aria-label={`Consumer groups of ${cluster.name}`} className="groups">
          <thead>
            <tr>
              <th>Group</th>
              <th>Type</th>
              <th>State</th>
              <th>Members</th>
              <th>Total lag</th>
              <th>Max lag</th>
            </tr>
          </thead>
          <tbody>
            {groups.map((g) => (
              <tr key={g.groupId} data-testid="group">
                <td className="group-id" title={g.groupId}>
                  {g.groupId}
                </td>
                <td>{g.type}</td>
                <td>{g.state}</td>
                <td>{g.memberCount}</td>
                <td>{g.maxLag === null && g.unknownLagPartitions > 0 ? "unknown" : g.totalLag}</td>
                <td>{g.maxLag ?? "–"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
