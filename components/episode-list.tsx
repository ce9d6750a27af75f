"use client";

import type { EpisodeRow } from "./api-types";
import { EmptyState } from "./feedback";
import { formatDuration } from "./format";
import { Time } from "./time";

export const CAUSE_LABELS: Record<string, string> = {
  "member-joined": "member joined",
  "member-left": "member left",
  "member-crashed": "member crashed",
  "poll-timeout": "poll timeout",
  "partition-count-changed": "partitions added",
  "subscription-changed": "subscription changed",
  "static-member-restarted": "static member restarted",
  unknown: "unknown cause",
};

const causeClass = (kind: string) => `badge cause-kind cause-${kind.replace(/[^a-z-]/g, "")}`;

/** Newest first; a stable key per episode so an expanded one stays open across refreshes. */
export const episodeKey = (e: EpisodeRow) => `${e.startedAfter}|${e.detectedAt}`;

export function sortEpisodesNewestFirst(episodes: EpisodeRow[]): EpisodeRow[] {
  return [...episodes].sort((a, b) => Date.parse(b.detectedAt) - Date.parse(a.detectedAt));
}

/** Rebalance episodes, each expandable (a <details>) to its causes with evidence, the members
 *  before and after, and the partitions that moved. */
export function EpisodeList({ episodes, now }: { episodes: EpisodeRow[]; now: number }) {
  if (episodes.length === 0)
    return (
      <EmptyState title="No rebalance in this window">
        Episodes appear here as the collector detects them.
      </EmptyState>
    );
  return (
    <ul className="episodes" data-testid="episodes">
      {sortEpisodesNewestFirst(episodes).map((e) => (
        <li key={episodeKey(e)}>
          <EpisodeItem e={e} now={now} />
        </li>
      ))}
    </ul>
  );
}

function EpisodeItem({ e, now }: { e: EpisodeRow; now: number }) {
  const start = Date.parse(e.startedAfter);
  const end = e.endedBy ? Date.parse(e.endedBy) : null;
  const kinds = e.causeKinds.length > 0 ? e.causeKinds : ["unknown"];
  const before = new Set(e.membersBefore);
  const after = new Set(e.membersAfter);
  return (
    <details className="episode" data-testid="episode" data-cause-kinds={kinds.join(" ")}>
      <summary>
        <Time iso={e.detectedAt} />
        <span className="chips">
          {kinds.map((k) => (
            <span key={k} className={causeClass(k)} data-cause={k}>
              {CAUSE_LABELS[k] ?? k}
            </span>
          ))}
        </span>
        {!e.rebalance ? <span className="badge">no rebalance</span> : null}
        <span className="muted small">
          {end === null
            ? `in progress for ${formatDuration(now - start)}`
            : `≤ ${formatDuration(end - start)}`}
        </span>
        <span className="muted small">
          members {e.membersBefore.length} → {e.membersAfter.length}
          {e.partitionsMoved.length > 0 ? `, ${e.partitionsMoved.length} partitions moved` : ""}
          {e.epochBefore !== null || e.epochAfter !== null
            ? `, epoch ${e.epochBefore ?? "?"} → ${e.epochAfter ?? "?"}`
            : ""}
        </span>
      </summary>
      <div className="episode-body">
        <p className="muted small" style={{ margin: "0 0 0.3rem" }}>
          Started after <Time iso={e.startedAfter} />, detected <Time iso={e.detectedAt} />
          {e.endedBy ? (
            <>
              , over by <Time iso={e.endedBy} />
            </>
          ) : (
            ", still open"
          )}
          {e.observedInProgress ? " (seen in progress)" : " (seen only after it finished)"}.
        </p>
        {e.causes.length === 0 ? <p className="muted">No cause could be inferred.</p> : null}
        {e.causes.map((c, i) => (
          <div key={i} className="cause" data-testid="cause">
            <div className="chips" style={{ alignItems: "center" }}>
              <span className={causeClass(c.kind)}>{CAUSE_LABELS[c.kind] ?? c.kind}</span>
              <span className="muted small">confidence {c.confidence}</span>
              {c.clientId ? (
                <span className="small">
                  client <span className="chip">{c.clientId}</span>
                </span>
              ) : null}
              {c.clientHost ? (
                <span className="chip" title={c.clientHost}>
                  {c.clientHost}
                </span>
              ) : null}
              {c.groupInstanceId ? (
                <span className="small">
                  instance <span className="chip">{c.groupInstanceId}</span>
                </span>
              ) : null}
              {c.memberId ? (
                <span className="chip" title={c.memberId}>
                  {c.memberId}
                </span>
              ) : null}
              {c.topic ? (
                <span className="small">
                  topic <span className="chip">{c.topic}</span>
                </span>
              ) : null}
            </div>
            {c.evidence.length > 0 ? (
              <ul data-testid="evidence">
                {c.evidence.map((line, j) => (
                  <li key={j}>{line}</li>
                ))}
              </ul>
            ) : null}
          </div>
        ))}
        <div className="grid-2" style={{ marginTop: "0.5rem" }}>
          <div>
            <div className="muted small">Members before ({e.membersBefore.length})</div>
            <div className="chips">
              {e.membersBefore.map((m) => (
                <span key={m} className={`chip${after.has(m) ? "" : " gone"}`} title={m}>
                  {m}
                </span>
              ))}
            </div>
          </div>
          <div>
            <div className="muted small">Members after ({e.membersAfter.length})</div>
            <div className="chips">
              {e.membersAfter.map((m) => (
                <span key={m} className={`chip${before.has(m) ? "" : " new"}`} title={m}>
                  {m}
                </span>
              ))}
            </div>
          </div>
        </div>
        {e.partitionsMoved.length > 0 ? (
          <div className="table-wrap" style={{ marginTop: "0.5rem" }}>
            <table aria-label="Partitions moved">
              <thead>
                <tr>
                  <th>Topic</th>
                  <th className="num">Partition</th>
                  <th>From</th>
                  <th>To</th>
                </tr>
              </thead>
              <tbody>
                {e.partitionsMoved.map((p) => (
                  <tr key={`${p.topic}:${p.partition}`}>
                    <td className="mono">{p.topic}</td>
                    <td className="num mono">{p.partition}</td>
                    <td className="mono">
                      <span className="truncate" style={{ maxWidth: "20rem" }} title={p.from ?? ""}>
                        {p.from ?? "–"}
                      </span>
                    </td>
                    <td className="mono">
                      <span className="truncate" style={{ maxWidth: "20rem" }} title={p.to ?? ""}>
                        {p.to ?? "–"}
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </div>
    </details>
  );
}
