"use client";

import { timeTicks } from "./geometry";
import { axisTime } from "./time";

/** Tick labels under an HTML timeline spanning [from, to], in the viewer's zone. */
export function TimeAxis({ from, to, ticks = 7 }: { from: number; to: number; ticks?: number }) {
  const span = to - from;
  const tz = new Date(from).getTimezoneOffset();
  return (
    <div className="axis" aria-hidden="true">
      {timeTicks(from, to, ticks, tz).map((t) => (
        <span key={t} style={{ left: `${((t - from) / span) * 100}%` }}>
          {axisTime(t, span)}
        </span>
      ))}
    </div>
  );
}
