"use client";

import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useRef, useState } from "react";

import {
  groupPath,
  type ClusterDetail,
  type ClusterResponse,
  type GroupsResponse,
} from "@/components/api-types";
import { IdLink, SortHeader } from "@/components/data-table";
import { EmptyState } from "@/components/feedback";
import { formatDuration, formatLagSeconds, formatOffset } from "@/components/format";
import {
  decodeListState,
  encodeListState,
  LIST_STATES,
  LIST_TYPES,
  listApiQuery,
  PAGE_SIZES,
  toggleSort,
  type GroupListState,
  type ListSort,
} from "@/components/group-list-state";
import { Loadable } from "@/components/loadable";
import { Panel } from "@/components/panel";
import { HealthBadge, StateBadge, StatusBadge } from "@/components/state-badge";
import { Time } from "@/components/time";
import { useApi } from "@/components/use-api";

const enc = encodeURIComponent;

/** A cluster: brokers and status on top, then its groups (server-side filter, sort and keyset
 *  paging; every choice kept in the URL so the view is a shareable link). */
export function ClusterPage({ cluster }: { cluster: string }) {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const state = decodeListState(params);
  // Cursors of the pages before this one, for "previous" (a keyset cursor only goes forward).
  const [back, setBack] = useState<(string | null)[]>([]);

  const detail = useApi<ClusterResponse>(["clusters", cluster], `/api/clusters/${enc(cluster)}`);
  const groups = useApi<GroupsResponse>(
    ["clusters", cluster, "groups", listApiQuery(state)],
    `/api/clusters/${enc(cluster)}/groups?${listApiQuery(state)}`,
  );

  const write = (next: GroupListState, keepHistory = false) => {
    if (!keepHistory) setBack([]);
    const q = encodeListState(next).toString();
    router.replace(q ? `${pathname}?${q}` : pathname, { scroll: false });
  };
  const onSort = (sort: ListSort) => write(toggleSort(state, sort));
  const h = { sort: state.sort, order: state.order, onSort };

  return (
    <div data-testid="cluster-page">
      <div className="crumbs">
        <Link href="/">Overview</Link>
        <span aria-hidden="true">›</span>
        <span>cluster</span>
      </div>
      <div className="page-head">
        <h1>
          {cluster}
          {detail.data ? (
            <HealthBadge
              state={
                detail.data.cluster.enabled ? (detail.data.cluster.status?.state ?? "pending") : "disabled"
              }
            />
          ) : null}
        </h1>
      </div>

      <Panel title="Status" fetching={detail.isFetching}>
        <Loadable q={detail} rows={2}>
          {(d) => (
            <ClusterSummary c={d.cluster} onState={(s) => write({ ...state, state: s, cursor: null })} />
          )}
        </Loadable>
      </Panel>

      <Panel
        title="Consumer groups"
        fetching={groups.isFetching}
        actions={
          groups.data ? (
            <span className="muted small" data-testid="group-total">
              {groups.data.total.toLocaleString()} group{groups.data.total === 1 ? "" : "s"}
            </span>
          ) : null
        }
      >
        <Toolbar state={state} onChange={(s) => write(s)} />
        <Loadable q={groups} rows={8} height="1.3rem">
          {(g) =>
            g.groups.length === 0 ? (
              <EmptyState title="No groups match">
                {state.q || state.state || state.type
                  ? "Clear the search or filters to see every group."
                  : "The collector has not seen any group yet."}
              </EmptyState>
            ) : (
              <div className="table-wrap">
                <table aria-label="Consumer groups" data-testid="groups">
                  <thead>
                    <tr>
                      <SortHeader label="Group" sortKey="name" {...h} />
                      <SortHeader label="State" sortKey="state" {...h} />
                      <th scope="col">Type</th>
                      <SortHeader label="Members" sortKey="members" numeric {...h} />
                      <SortHeader label="Total lag" sortKey="lag" numeric {...h} />
                      <th scope="col" className="num">
                        Max lag
                      </th>
                      <SortHeader label="Lag (time)" sortKey="lagSeconds" numeric {...h} />
                      <th scope="col">Status</th>
                      <SortHeader
                        label="Reb. 1h"
                        sortKey="rebalances1h"
                        numeric
                        {...h}
                        title="Rebalances in the last hour"
                      />
                      <SortHeader
                        label="Reb. 24h"
                        sortKey="rebalances24h"
                        numeric
                        {...h}
                        title="Rebalances in the last 24 hours"
                      />
                      <th scope="col">Last seen</th>
                    </tr>
                  </thead>
                  <tbody>
                    {g.groups.map((r) => (
                      <tr key={r.groupId} data-testid="group-row" className={r.deleted ? "muted" : undefined}>
                        <td>
                          <IdLink href={groupPath(cluster, r.groupId)} text={r.groupId} max="26rem" />
                        </td>
                        <td>
                          <StateBadge state={r.state} />
                        </td>
                        <td>{r.type}</td>
                        <td className="num mono">{r.memberCount}</td>
                        <td className="num mono">
                          {r.maxLag === null && r.unknownLagPartitions > 0
                            ? "unknown"
                            : formatOffset(r.totalLag)}
                        </td>
                        <td className="num mono">{formatOffset(r.maxLag)}</td>
                        <td className="num mono">{formatLagSeconds(r.lagSeconds)}</td>
                        <td>
                          <StatusBadge status={r.consumerStatus} />
                        </td>
                        <td className="num mono">{r.rebalances1h}</td>
                        <td className="num mono">{r.rebalances24h}</td>
                        <td>
                          <Time iso={r.lastSeenAt} relative />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )
          }
        </Loadable>
        <div className="pager">
          {groups.data ? (
            <span className="muted small">
              page {back.length + 1}
              {groups.data.total > 0
                ? `, rows ${(back.length * state.limit + 1).toLocaleString()}–${(back.length * state.limit + groups.data.groups.length).toLocaleString()} of ${groups.data.total.toLocaleString()}`
                : ""}
            </span>
          ) : null}
          <button
            type="button"
            className="btn"
            disabled={state.cursor === null}
            onClick={() => {
              const prev = back.length > 0 ? back[back.length - 1]! : null;
              setBack(back.slice(0, -1));
              write({ ...state, cursor: prev }, true);
            }}
          >
            ← Previous
          </button>
          <button
            type="button"
            className="btn"
            disabled={!groups.data?.nextCursor}
            onClick={() => {
              if (!groups.data?.nextCursor) return;
              setBack([...back, state.cursor]);
              write({ ...state, cursor: groups.data.nextCursor }, true);
            }}
          >
            Next →
          </button>
        </div>
      </Panel>
    </div>
  );
}

function Toolbar({ state, onChange }: { state: GroupListState; onChange: (s: GroupListState) => void }) {
  const [q, setQ] = useState(state.q);
  const latest = useRef({ state, onChange });
  useEffect(() => {
    latest.current = { state, onChange };
  });
  // Typing settles for 300 ms before the URL (and the query) changes; re-renders from live
  // refreshes do not restart the wait.
  const urlQ = state.q;
  useEffect(() => {
    if (q.trim() === urlQ.trim()) return;
    const t = setTimeout(() => latest.current.onChange({ ...latest.current.state, q, cursor: null }), 300);
    return () => clearTimeout(t);
  }, [q, urlQ]);
  return (
    <div className="toolbar" role="search">
      <input
        type="search"
        aria-label="Search groups"
        placeholder="Search group ids…"
        value={q}
        maxLength={200}
        onChange={(e) => setQ(e.target.value)}
      />
      <FilterSelect
        label="State"
        value={state.state}
        options={LIST_STATES}
        onChange={(v) => onChange({ ...state, state: v, cursor: null })}
      />
      <FilterSelect
        label="Type"
        value={state.type}
        options={LIST_TYPES}
        onChange={(v) => onChange({ ...state, type: v, cursor: null })}
      />
      <label className="small muted">
        Page size{" "}
        <select
          aria-label="Page size"
          value={state.limit}
          onChange={(e) => onChange({ ...state, limit: Number(e.target.value), cursor: null })}
        >
          {(PAGE_SIZES as readonly number[]).includes(state.limit) ? null : (
            <option value={state.limit}>{state.limit}</option>
          )}
          {PAGE_SIZES.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </label>
      {state.q || state.state || state.type ? (
        <button
          type="button"
          className="btn"
          onClick={() => {
            setQ("");
            onChange({ ...state, q: "", state: null, type: null, cursor: null });
          }}
        >
          Clear filters
        </button>
      ) : null}
    </div>
  );
}

function ClusterSummary({ c, onState }: { c: ClusterDetail; onState: (s: GroupListState["state"]) => void }) {
  const s = c.status;
  return (
    <>
      <dl className="stats">
        <div>
          <dt>Last poll</dt>
          <dd>{s ? <Time iso={s.lastPollAt} relative /> : <span className="muted">never</span>}</dd>
        </div>
        <div>
          <dt>Poll took</dt>
          <dd className="mono">{s ? formatDuration(s.lastPollDurationMs) : "–"}</dd>
        </div>
        <div>
          <dt>Topics</dt>
          <dd className="mono">{c.counts.topics ?? "–"}</dd>
        </div>
        <div>
          <dt>Partitions</dt>
          <dd className="mono">{c.counts.partitions ?? "–"}</dd>
        </div>
        <div>
          <dt>Groups</dt>
          <dd className="mono">{c.counts.groups}</dd>
        </div>
        <div>
          <dt>Deleted groups</dt>
          <dd className="mono">{c.counts.deletedGroups}</dd>
        </div>
        <div>
          <dt>Open incidents</dt>
          <dd className="mono">{c.counts.openIncidents}</dd>
        </div>
        <div>
          <dt>Failures in a row</dt>
          <dd className="mono">{s?.consecutiveFailures ?? 0}</dd>
        </div>
      </dl>
      {s?.lastError ? (
        <p className="error-text" role="alert">
          {s.consecutiveFailures} failed poll{s.consecutiveFailures === 1 ? "" : "s"} in a row: {s.lastError}
        </p>
      ) : null}
      <div className="chips" style={{ margin: "0.5rem 0", alignItems: "center" }}>
        <span className="muted small">By state:</span>
        {Object.entries(c.groupsByState).map(([st, n]) => (
          <button
            key={st}
            type="button"
            className="btn"
            style={{ minHeight: 0, padding: "0 0.35rem" }}
            onClick={() =>
              onState(
                (LIST_STATES as readonly string[]).includes(st) ? (st as GroupListState["state"]) : null,
              )
            }
            title={`Show only ${st} groups`}
          >
            <StateBadge state={st} /> <span className="mono">{n}</span>
          </button>
        ))}
      </div>
      {c.brokers.length > 0 ? (
        <div className="table-wrap">
          <table aria-label="Brokers">
            <thead>
              <tr>
                <th className="num">Node</th>
                <th>Host</th>
                <th className="num">Port</th>
                <th>Rack</th>
                <th>Role</th>
              </tr>
            </thead>
            <tbody>
              {c.brokers.map((b) => (
                <tr key={b.nodeId} data-testid="broker">
                  <td className="num mono">{b.nodeId}</td>
                  <td className="mono">{b.host}</td>
                  <td className="num mono">{b.port}</td>
                  <td>{b.rack ?? "–"}</td>
                  <td>{b.nodeId === c.controllerId ? "controller" : ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </>
  );
}

/** A filter over a fixed list of values; "any" clears it. */
function FilterSelect<T extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: T | null;
  options: readonly T[];
  onChange: (value: T | null) => void;
}) {
  return (
    <label className="small muted">
      {label}{" "}
      <select
        aria-label={label}
        value={value ?? ""}
        onChange={(e) => onChange(options.find((o) => o === e.target.value) ?? null)}
      >
        <option value="">any</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </label>
  );
}
