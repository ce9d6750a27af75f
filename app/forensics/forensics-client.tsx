"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useState } from "react";

import { groupPath, type ClustersResponse, type Json } from "@/components/api-types";
import { IdLink, Truncate } from "@/components/data-table";
import { CAUSE_LABELS } from "@/components/episode-list";
import { EmptyState } from "@/components/feedback";
import { formatDuration, formatOffset } from "@/components/format";
import { Loadable } from "@/components/loadable";
import { Panel } from "@/components/panel";
import { RangePicker, useRange } from "@/components/range-picker";
import { rangeKey, resolveRange } from "@/components/range";
import { Time } from "@/components/time";
import { useApi } from "@/components/use-api";
import type { ForensicsEpisode, ForensicsEvent, ForensicsSummary } from "@/lib/domain/forensics";

import styles from "../admin/_ui/admin.module.css";

interface ForensicsResponse {
  cluster: string;
  from: string;
  to: string;
  truncated: boolean;
  summary: ForensicsSummary;
  peakLag?: Record<string, string>;
  episodes: Json<ForensicsEpisode>[];
  events: ForensicsEvent[];
}

const iso = (t: number | string) => new Date(t).toISOString();

function forensicsUrl(cluster: string, from: string, to: string, groups: string[], format: "json" | "md") {
  const p = new URLSearchParams({ from, to });
  for (const g of groups) p.append("group", g);
  p.set("format", format);
  return `/api/clusters/${encodeURIComponent(cluster)}/forensics?${p.toString()}`;
}

/** Cluster, window and groups live in the URL: a forensics view is a link to share. */
export function ForensicsClient() {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const { sel } = useRange("24h");
  const clusters = useApi<ClustersResponse>(["clusters"], "/api/clusters", { refetchMs: false });
  const groups = params.getAll("group");
  const cluster = params.get("cluster") ?? clusters.data?.clusters[0]?.name ?? null;
  const [groupInput, setGroupInput] = useState("");

  const setParams = (edit: (p: URLSearchParams) => void) => {
    const p = new URLSearchParams(params.toString());
    edit(p);
    const q = p.toString();
    router.replace(q ? `${pathname}?${q}` : pathname, { scroll: false });
  };

  const live = resolveRange(sel, Date.now()).live;
  const q = useApi<ForensicsResponse>(
    ["clusters", cluster, "forensics", rangeKey(sel), groups],
    cluster === null
      ? null
      : () => {
          const w = resolveRange(sel, Date.now());
          return forensicsUrl(cluster, iso(w.from), iso(w.to), groups, "json");
        },
    { refetchMs: live ? 30_000 : false },
  );

  return (
    <>
      <div className="page-head">
        <h1>Rebalance forensics</h1>
      </div>
      <section className="card" aria-label="What to look at">
        <div className="toolbar">
          <label>
            Cluster{" "}
            <select
              value={cluster ?? ""}
              onChange={(e) => setParams((p) => p.set("cluster", e.target.value))}
              disabled={!clusters.data}
            >
              {clusters.data?.clusters.length === 0 ? <option value="">no clusters</option> : null}
              {clusters.data?.clusters.map((c) => (
                <option key={c.id} value={c.name}>
                  {c.name}
                </option>
              ))}
            </select>
          </label>
          <RangePicker fallback="24h" />
        </div>
        <form
          className="toolbar"
          onSubmit={(e) => {
            e.preventDefault();
            const g = groupInput.trim();
            if (g && !groups.includes(g)) setParams((p) => p.append("group", g));
            setGroupInput("");
          }}
        >
          <label>
            Only these groups{" "}
            <input
              value={groupInput}
              onChange={(e) => setGroupInput(e.target.value)}
              placeholder="group id"
              aria-label="Group id to add"
            />
          </label>
          <button type="submit" className="btn">
            Add group
          </button>
          {groups.length === 0 ? <span className="muted small">all groups</span> : null}
          <ul className="chips" aria-label="Selected groups">
            {groups.map((g) => (
              <li key={g} className="chip">
                <Truncate text={g} max="14rem" />{" "}
                <button
                  type="button"
                  className="icon-button"
                  aria-label={`Remove group ${g}`}
                  onClick={() =>
                    setParams((p) => {
                      p.delete("group");
                      for (const other of groups) if (other !== g) p.append("group", other);
                    })
                  }
                >
                  ×
                </button>
              </li>
            ))}
          </ul>
        </form>
      </section>
      {clusters.data?.clusters.length === 0 ? (
        <EmptyState title="No clusters">An admin can add one under Settings.</EmptyState>
      ) : (
        <Loadable q={q} rows={6}>
          {(data) => <Report data={data} groups={groups} />}
        </Loadable>
      )}
    </>
  );
}

function Report({ data, groups }: { data: ForensicsResponse; groups: string[] }) {
  const s = data.summary;
  const causes = Object.entries(s.causes).sort((a, b) => (b[1] ?? 0) - (a[1] ?? 0));
  return (
    <>
      <Panel
        title="Summary"
        testId="forensics-summary"
        actions={
          <>
            <a
              className="btn"
              href={forensicsUrl(data.cluster, data.from, data.to, groups, "md")}
              download
              data-testid="download-md"
            >
              Download Markdown
            </a>{" "}
            <a
              className="btn"
              href={forensicsUrl(data.cluster, data.from, data.to, groups, "json")}
              download={`groupwatch-${data.cluster.replace(/[^A-Za-z0-9._-]+/g, "_")}-forensics.json`}
              data-testid="download-json"
            >
              Download JSON
            </a>
          </>
        }
      >
        <p className="muted small">
          <Truncate text={data.cluster} max="20rem" mono={false} />, <Time iso={data.from} /> –{" "}
          <Time iso={data.to} />
          {data.truncated ? " · truncated: narrow the window or the groups" : ""}
        </p>
        <dl className="facts">
          <dt>Rebalances</dt>
          <dd>{s.rebalances}</dd>
          <dt>Groups affected</dt>
          <dd>{s.groups.filter((g) => g.rebalances > 0).length}</dd>
          <dt>Members lost</dt>
          <dd>{s.membersLost}</dd>
          <dt>Longest rebalance</dt>
          <dd>
            {s.longest ? (
              <>
                {formatDuration(s.longest.ms)} in <Truncate text={s.longest.groupId} max="20rem" />
              </>
            ) : (
              "–"
            )}
          </dd>
          <dt>Causes</dt>
          <dd>
            {causes.length === 0
              ? "–"
              : causes.map(([k, n]) => `${CAUSE_LABELS[k] ?? k} ${n ?? 0}`).join(" · ")}
          </dd>
        </dl>
        {s.groups.length === 0 ? (
          <EmptyState title="No rebalances in this window">
            Pick a longer window or another cluster.
          </EmptyState>
        ) : (
          <div className="table-wrap">
            <table data-testid="forensics-groups">
              <thead>
                <tr>
                  <th scope="col">Group</th>
                  <th scope="col">Rebalances</th>
                  <th scope="col">Causes</th>
                  <th scope="col">Members lost</th>
                  <th scope="col">Longest</th>
                  <th scope="col">Peak lag</th>
                </tr>
              </thead>
              <tbody>
                {s.groups.map((g) => (
                  <tr key={g.groupId}>
                    <td>
                      <IdLink href={groupPath(data.cluster, g.groupId)} text={g.groupId} max="20rem" />
                    </td>
                    <td className="num mono">{g.rebalances}</td>
                    <td className="small">
                      {Object.entries(g.causes)
                        .map(([k, n]) => `${CAUSE_LABELS[k] ?? k} ${n ?? 0}`)
                        .join(" · ") || "–"}
                    </td>
                    <td className="num mono">{g.membersLost}</td>
                    <td className="mono">{g.longestMs === null ? "–" : formatDuration(g.longestMs)}</td>
                    <td className="num mono">{g.peakLag === null ? "–" : formatOffset(g.peakLag)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Panel>
      <EventLog data={data} />
    </>
  );
}

type LogItem =
  | { type: "episode"; at: number; episode: Json<ForensicsEpisode>; events: ForensicsEvent[] }
  | { type: "event"; at: number; event: ForensicsEvent };

const num = (v: number | string | null) => (v === null ? null : typeof v === "number" ? v : Date.parse(v));

/** Events in time order across groups; those inside a rebalance episode are grouped under it. */
function buildLog(data: ForensicsResponse): LogItem[] {
  const to = Date.parse(data.to);
  const episodes = data.episodes.map((e) => ({
    e,
    from: num(e.startedAfter) ?? 0,
    until: num(e.endedBy) ?? to,
    events: [] as ForensicsEvent[],
  }));
  const items: LogItem[] = [];
  for (const ev of data.events) {
    const home = episodes.find((x) => x.e.groupId === ev.groupId && ev.at > x.from && ev.at <= x.until);
    if (home) home.events.push(ev);
    else items.push({ type: "event", at: ev.at, event: ev });
  }
  for (const x of episodes) items.push({ type: "episode", at: x.from, episode: x.e, events: x.events });
  return items.sort((a, b) => a.at - b.at);
}

function describe(ev: ForensicsEvent): string {
  const d = ev.details;
  const bits: string[] = [];
  for (const k of ["from", "to", "clientId", "topic", "reason", "state"]) {
    const v = d[k];
    if (typeof v === "string" || typeof v === "number") bits.push(`${k} ${String(v)}`);
  }
  if (ev.memberId) bits.push(`member ${ev.memberId}`);
  return bits.join(" · ");
}

function EventLog({ data }: { data: ForensicsResponse }) {
  const items = buildLog(data);
  return (
    <Panel
      title={`Event log (${data.events.length} events, ${data.episodes.length} episodes)`}
      testId="event-log"
    >
      {items.length === 0 ? (
        <EmptyState title="Nothing happened in this window" />
      ) : (
        <ol className={styles.steps} style={{ gap: "0.35rem" }}>
          {items.map((it, i) =>
            it.type === "event" ? (
              <li key={`ev-${i}`} style={{ gridTemplateColumns: "10rem 14rem 10rem 1fr" }}>
                <Time iso={iso(it.at)} />
                <Truncate text={it.event.groupId} max="14rem" />
                <span>{it.event.kind}</span>
                <span className="small muted">
                  <Truncate text={describe(it.event)} max="30rem" />
                </span>
              </li>
            ) : (
              <li key={`ep-${i}`} style={{ display: "block" }}>
                <details>
                  <summary>
                    <Time iso={iso(it.at)} /> <strong>Rebalance</strong> of{" "}
                    <Truncate text={it.episode.groupId} max="18rem" />
                    {": "}
                    {it.episode.causes.map((c) => CAUSE_LABELS[c.kind] ?? c.kind).join(", ") ||
                      "cause unknown"}
                    {" · "}
                    {it.episode.membersBefore.length} → {it.episode.membersAfter.length} members
                    {it.episode.endedBy === null
                      ? " · still in progress"
                      : ` · ≤ ${formatDuration((num(it.episode.endedBy) ?? 0) - (num(it.episode.startedAfter) ?? 0))}`}
                    <span className="muted small"> ({it.events.length} events)</span>
                  </summary>
                  <ol className={styles.steps} style={{ margin: "0.3rem 0 0.3rem 1.5rem" }}>
                    {it.events.map((ev, j) => (
                      <li key={j} style={{ gridTemplateColumns: "10rem 12rem 1fr" }}>
                        <Time iso={iso(ev.at)} />
                        <span>{ev.kind}</span>
                        <span className="small muted">
                          <Truncate text={describe(ev)} max="34rem" />
                        </span>
                      </li>
                    ))}
                  </ol>
                </details>
              </li>
            ),
          )}
        </ol>
      )}
    </Panel>
  );
}
