"use client";

import Link from "next/link";
import { useState } from "react";

import {
  clusterPath,
  type GroupResponse,
  type LagResponse,
  type MemberRow,
  type TimelineResponse,
} from "@/components/api-types";
import { SortHeader, sortRows, Truncate, type SortOrder } from "@/components/data-table";
import { EpisodeList } from "@/components/episode-list";
import { EmptyState } from "@/components/feedback";
import { formatLagSeconds, formatOffset } from "@/components/format";
import { LagChart } from "@/components/lag-chart";
import { Loadable } from "@/components/loadable";
import { Panel } from "@/components/panel";
import { RangePicker, useRange } from "@/components/range-picker";
import { rangeKey, resolveRange } from "@/components/range";
import { SessionGantt } from "@/components/session-gantt";
import { StateBadge, StatusBadge } from "@/components/state-badge";
import { StateSwimlane } from "@/components/swimlane";
import { Time } from "@/components/time";
import { LIVE_MS, useApi } from "@/components/use-api";
import { useNow } from "@/components/use-now";

const enc = encodeURIComponent;

/** The group page: header, state swimlane, lag chart, rebalance episodes, members, sessions and
 *  partitions, all refreshing live while the range ends now. */
export function GroupPage({ cluster, group }: { cluster: string; group: string }) {
  const { sel } = useRange("1h");
  const base = `/api/clusters/${enc(cluster)}/groups/${enc(group)}`;
  const key = ["clusters", cluster, "groups", group] as const;
  const live = resolveRange(sel, Date.now()).live;
  const inWindow = (path: string) => () => {
    const w = resolveRange(sel, Date.now());
    return `${base}/${path}?from=${w.from}&to=${w.to}`;
  };

  const detail = useApi<GroupResponse>(key, base);
  const timeline = useApi<TimelineResponse>([...key, "timeline", rangeKey(sel)], inWindow("timeline"), {
    refetchMs: live ? LIVE_MS : false,
  });
  const lag = useApi<LagResponse>([...key, "lag", rangeKey(sel)], inWindow("lag"), {
    refetchMs: live ? 2 * LIVE_MS : false,
  });
  const clock = useNow();

  return (
    <div data-testid="group-page">
      <div className="crumbs">
        <Link href="/">Overview</Link>
        <span aria-hidden="true">›</span>
        <Link href={clusterPath(cluster)}>{cluster}</Link>
        <span aria-hidden="true">›</span>
        <span>consumer group</span>
      </div>
      <div className="page-head">
        <h1>
          <Truncate text={group} max="40rem" />
          {detail.data ? <StateBadge state={detail.data.group.state} /> : null}
          {detail.data ? <StatusBadge status={detail.data.consumerStatus?.status} /> : null}
        </h1>
        <span className="spacer" />
        <RangePicker fallback="1h" />
      </div>

      <Panel title="Now" fetching={detail.isFetching} testId="group-header">
        <Loadable q={detail} rows={2}>
          {(d) => <GroupHeader d={d} />}
        </Loadable>
      </Panel>

      <Panel title="State over time" fetching={timeline.isFetching}>
        <Loadable q={timeline} rows={1} height="26px">
          {(t) => (
            <StateSwimlane
              intervals={t.intervals}
              from={Date.parse(t.from)}
              to={Date.parse(t.to)}
              now={clock ?? Date.parse(t.to)}
            />
          )}
        </Loadable>
      </Panel>

      <Panel
        title="Lag"
        fetching={lag.isFetching}
        actions={
          lag.data ? (
            <span className="muted small">step {lag.data.stepSeconds} s · shaded: rebalances</span>
          ) : null
        }
      >
        <Loadable q={lag} rows={1} height="220px">
          {(l) => (
            <LagChart
              lag={l}
              episodes={timeline.data?.episodes ?? []}
              from={Date.parse(l.from)}
              to={Date.parse(l.to)}
            />
          )}
        </Loadable>
      </Panel>

      <Panel
        title="Rebalances"
        fetching={timeline.isFetching}
        testId="episodes-panel"
        actions={
          timeline.data ? (
            <span className="muted small">
              {timeline.data.episodes.length} in window{timeline.data.truncated ? " (truncated)" : ""}
            </span>
          ) : null
        }
      >
        <Loadable q={timeline} rows={3}>
          {(t) => <EpisodeList episodes={t.episodes} now={clock ?? Date.parse(t.to)} />}
        </Loadable>
      </Panel>

      <Panel title="Members" fetching={detail.isFetching} testId="members-panel">
        <Loadable q={detail} rows={3}>
          {(d) => <MembersTable members={d.members} />}
        </Loadable>
      </Panel>

      <Panel title="Member sessions" fetching={timeline.isFetching}>
        <Loadable q={timeline} rows={3}>
          {(t) => (
            <SessionGantt
              sessions={t.sessions}
              from={Date.parse(t.from)}
              to={Date.parse(t.to)}
              now={clock ?? Date.parse(t.to)}
            />
          )}
        </Loadable>
      </Panel>

      <Panel title="Partitions" fetching={detail.isFetching}>
        <Loadable q={detail} rows={3}>
          {(d) => <PartitionsTable d={d} />}
        </Loadable>
      </Panel>
    </div>
  );
}

function GroupHeader({ d }: { d: GroupResponse }) {
  const g = d.group;
  return (
    <>
      {g.deleted ? (
        <p className="error-text" role="status">
          This group was deleted <Time iso={g.deletedAt} relative />; its history stays.
        </p>
      ) : null}
      <dl className="stats">
        <div>
          <dt>State</dt>
          <dd>
            <StateBadge state={g.state} />
          </dd>
        </div>
        <div>
          <dt>Consumer status</dt>
          <dd>
            <StatusBadge status={d.consumerStatus?.status} />
          </dd>
        </div>
        <div>
          <dt>Type</dt>
          <dd>{g.type}</dd>
        </div>
        <div>
          <dt>Members</dt>
          <dd data-testid="member-count">{g.memberCount}</dd>
        </div>
        <div>
          <dt>Total lag</dt>
          <dd className="mono">
            {formatOffset(g.totalLag)}
            {g.unknownLagPartitions > 0 ? (
              <span className="muted small" title="partitions without a committed offset">
                {" "}
                +{g.unknownLagPartitions} unknown
              </span>
            ) : null}
          </dd>
        </div>
        <div>
          <dt>Max lag</dt>
          <dd className="mono">{formatOffset(g.maxLag)}</dd>
        </div>
        <div>
          <dt>Lag in time</dt>
          <dd className="mono">{formatLagSeconds(g.lagSeconds)}</dd>
        </div>
        <div>
          <dt>Assignor</dt>
          <dd className="mono">{g.assignor ?? "–"}</dd>
        </div>
        <div>
          <dt>Epoch</dt>
          <dd className="mono">{g.groupEpoch ?? "–"}</dd>
        </div>
        <div>
          <dt>Coordinator</dt>
          <dd className="mono">{g.coordinatorId ?? "–"}</dd>
        </div>
        <div>
          <dt>Last seen</dt>
          <dd>
            <Time iso={g.lastSeenAt} relative />
          </dd>
        </div>
      </dl>
      {d.openIncidents.length > 0 ? (
        <div style={{ marginTop: "0.6rem" }} data-testid="open-incidents">
          <div className="muted small">Open incidents</div>
          <ul style={{ margin: "0.2rem 0 0", paddingLeft: "1.1rem" }}>
            {d.openIncidents.map((i) => (
              <li key={i.id}>
                <span className={`badge sev-${i.severity}`}>{i.severity}</span> <strong>{i.kind}</strong>{" "}
                {i.summary} <span className="muted small">opened</span> <Time iso={i.openedAt} relative />
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </>
  );
}

type MemberSort = "clientId" | "memberId" | "clientHost" | "partitions";

const assignedCount = (m: MemberRow) => (m.assignment ?? []).reduce((n, a) => n + a.partitions.length, 0);

function MembersTable({ members }: { members: MemberRow[] }) {
  const [sort, setSort] = useState<MemberSort>("clientId");
  const [order, setOrder] = useState<SortOrder>("asc");
  if (members.length === 0) return <EmptyState title="No members" />;
  const onSort = (k: MemberSort) => {
    setOrder(k === sort ? (order === "asc" ? "desc" : "asc") : "asc");
    setSort(k);
  };
  const rows = sortRows(members, (m) => (sort === "partitions" ? assignedCount(m) : m[sort]), order);
  const h = { sort, order, onSort };
  return (
    <div className="table-wrap">
      <table aria-label="Members" data-testid="members">
        <thead>
          <tr>
            <SortHeader label="Client id" sortKey="clientId" {...h} />
            <SortHeader label="Member id" sortKey="memberId" {...h} />
            <SortHeader label="Host" sortKey="clientHost" {...h} />
            <th scope="col">Instance id</th>
            <SortHeader label="Partitions" sortKey="partitions" numeric {...h} />
            <th scope="col">Assignment</th>
            <th scope="col">Subscribed</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((m) => (
            <tr key={m.memberId} data-testid="member">
              <td>
                <Truncate text={m.clientId} max="14rem" />
              </td>
              <td>
                <Truncate text={m.memberId} max="22rem" />
              </td>
              <td>
                <Truncate text={m.clientHost} max="12rem" />
              </td>
              <td>
                {m.groupInstanceId ? (
                  <Truncate text={m.groupInstanceId} max="10rem" />
                ) : (
                  <span className="muted">–</span>
                )}
              </td>
              <td className="num mono">{assignedCount(m)}</td>
              <td className="wrap mono small">
                {(m.assignment ?? []).length === 0 ? (
                  <span className="muted">none</span>
                ) : (
                  (m.assignment ?? []).map((a) => (
                    <div key={a.topic}>
                      {a.topic}: {[...a.partitions].sort((x, y) => x - y).join(", ")}
                    </div>
                  ))
                )}
              </td>
              <td className="wrap mono small">
                {m.subscribedTopicRegex
                  ? `/${m.subscribedTopicRegex}/`
                  : m.subscribedTopics.join(", ") || "–"}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

type PartitionSort = "topic" | "lag" | "lagSeconds";

function PartitionsTable({ d }: { d: GroupResponse }) {
  const [sort, setSort] = useState<PartitionSort>("topic");
  const [order, setOrder] = useState<SortOrder>("asc");
  if (d.partitions.length === 0) return <EmptyState title="No committed offsets" />;
  const clientOf = new Map(d.members.map((m) => [m.memberId, m.clientId]));
  const onSort = (k: PartitionSort) => {
    setOrder(k === sort ? (order === "asc" ? "desc" : "asc") : k === "topic" ? "asc" : "desc");
    setSort(k);
  };
  const rows = sortRows(
    d.partitions,
    (p) =>
      sort === "topic"
        ? `${p.topic}\u0000${String(p.partition).padStart(6, "0")}`
        : sort === "lag"
          ? p.lag === null
            ? null
            : Number(p.lag)
          : p.lagSeconds,
    order,
  );
  const h = { sort, order, onSort };
  return (
    <div className="table-wrap">
      <table aria-label="Partitions">
        <thead>
          <tr>
            <SortHeader label="Topic / partition" sortKey="topic" {...h} />
            <th className="num">Committed</th>
            <th className="num">Log end</th>
            <SortHeader label="Lag" sortKey="lag" numeric {...h} />
            <SortHeader label="Lag (time)" sortKey="lagSeconds" numeric {...h} />
            <th>Owner</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((p) => (
            <tr key={`${p.topic}:${p.partition}`}>
              <td className="mono">
                {p.topic}
                <span className="muted">:{p.partition}</span>
              </td>
              <td className="num mono">{formatOffset(p.committedOffset)}</td>
              <td className="num mono">{formatOffset(p.logEndOffset)}</td>
              <td className="num mono">{formatOffset(p.lag)}</td>
              <td className="num mono">{formatLagSeconds(p.lagSeconds)}</td>
              <td>
                {p.memberId ? (
                  <Truncate text={`${clientOf.get(p.memberId) ?? ""} ${p.memberId}`.trim()} max="22rem" />
                ) : (
                  <span className="muted">unassigned</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
