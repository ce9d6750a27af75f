"use client";

import type { SessionRow } from "./api-types";
import { EmptyState } from "./feedback";
import { formatDuration, formatUtc } from "./format";
import { ganttBars } from "./geometry";
import { leftHowColorClass } from "./state-badge";
import { TimeAxis } from "./time-axis";

const LEFT_HOW = [
  ["present", "still a member"],
  ["member-left", "left cleanly"],
  ["member-crashed", "crashed"],
  ["poll-timeout", "poll timeout"],
  ["static-member-restarted", "static restart"],
  ["group-deleted", "group deleted"],
  ["unknown", "unknown"],
] as const;

/** Member sessions as a Gantt chart: one row per session, a bar from join to leave (or now),
 *  coloured by how the member left. */
export function SessionGantt({
  sessions,
  from,
  to,
  now,
}: {
  sessions: SessionRow[];
  from: number;
  to: number;
  now: number;
}) {
  const bars = ganttBars(sessions, from, to, now);
  if (bars.length === 0) return <EmptyState title="No member sessions in this window" />;
  return (
    <div data-testid="session-gantt">
      <div className="gantt" role="list" aria-label="Member sessions">
        {bars.map((b) => {
          const s = b.session;
          const how = s.leftHow ?? "present";
          const tip = [
            `member ${s.memberId}`,
            `client ${s.clientId} @ ${s.clientHost}${s.groupInstanceId ? ` (instance ${s.groupInstanceId})` : ""}`,
            `joined ${formatUtc(s.joinedAt)}${s.joinedObserved ? "" : " (or earlier: already there when first seen)"}`,
            s.leftAt ? `left ${formatUtc(s.leftAt)}: ${s.leftHow ?? "unknown"}` : "still a member",
            `for ${formatDuration((s.leftAt ? Date.parse(s.leftAt) : now) - Date.parse(s.joinedAt))}`,
          ].join("\n");
          return (
            <div key={`${s.memberId}-${s.joinedAt}`} role="listitem" style={{ display: "contents" }}>
              <span className="gantt-label" title={`${s.clientId} ${s.memberId}`}>
                {s.clientId} <span className="muted">{s.memberId.slice(-12)}</span>
              </span>
              <div className="gantt-track">
                <div
                  className={`gantt-bar ${leftHowColorClass(s.leftHow)}${b.open ? " open" : ""}`}
                  style={{ left: `${b.leftPct}%`, width: `${b.widthPct}%` }}
                  title={tip}
                  aria-label={tip}
                  tabIndex={0}
                  data-left-how={how}
                />
              </div>
            </div>
          );
        })}
        <span />
        <TimeAxis from={from} to={to} />
      </div>
      <div className="legend">
        {LEFT_HOW.map(([k, label]) => (
          <span key={k} className={`legend-item lh-${k}`}>
            {label}
          </span>
        ))}
      </div>
    </div>
  );
}
