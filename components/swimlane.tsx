"use client";

import type { TimelineResponse } from "./api-types";
import { EmptyState } from "./feedback";
import { formatDuration, formatUtc } from "./format";
import { swimlaneSegments } from "./geometry";
import { stateColorClass } from "./state-badge";
import { TimeAxis } from "./time-axis";

const LEGEND = [
  "Stable",
  "PreparingRebalance",
  "CompletingRebalance",
  "Assigning",
  "Reconciling",
  "Empty",
  "Dead",
];

/** The group's states over the window as one coloured lane; hover (or focus) a segment for its
 *  state, bounds and length. */
export function StateSwimlane({
  intervals,
  from,
  to,
  now,
}: {
  intervals: TimelineResponse["intervals"];
  from: number;
  to: number;
  now: number;
}) {
  const segments = swimlaneSegments(intervals, from, to, now);
  if (segments.length === 0)
    return (
      <EmptyState title="No state recorded in this window">
        The collector has not seen the group then.
      </EmptyState>
    );
  const present = new Set(segments.map((s) => s.state));
  return (
    <div className="lane-wrap" data-testid="state-swimlane">
      <div className="swimlane" role="list" aria-label="Group state over time">
        {segments.map((s) => {
          const label = `${s.state}: ${formatUtc(s.start)} → ${s.open ? "now" : formatUtc(s.end)} (${formatDuration(s.end - s.start)}${s.clippedStart ? ", began earlier" : ""})`;
          return (
            <div
              key={`${s.start}-${s.state}`}
              role="listitem"
              tabIndex={0}
              className={`swim-seg ${stateColorClass(s.state)}`}
              style={{ left: `${s.leftPct}%`, width: `${s.widthPct}%` }}
              title={label}
              aria-label={label}
            />
          );
        })}
      </div>
      <TimeAxis from={from} to={to} />
      <div className="legend">
        {LEGEND.filter((s) => present.has(s) || s === "Stable").map((s) => (
          <span key={s} className={`legend-item ${stateColorClass(s)}`}>
            {s}
          </span>
        ))}
        {[...present]
          .filter((s) => !LEGEND.includes(s))
          .map((s) => (
            <span key={s} className={`legend-item ${stateColorClass(s)}`}>
              {s}
            </span>
          ))}
      </div>
    </div>
  );
}
