"use client";

import { formatAgo, formatUtc } from "./format";
import { useNow } from "./use-now";

const LOCAL = new Intl.DateTimeFormat(undefined, {
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
});

/** An instant in the viewer's zone ("Nov 30, 10:04:05"), or relative ("12 s ago") when
 *  `relative`; the exact UTC time on hover. */
export function Time({ iso, relative = false }: { iso: string | null | undefined; relative?: boolean }) {
  const now = useNow();
  if (!iso) return <span className="muted">–</span>;
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return <span className="muted">–</span>;
  // Before hydration the zone and the clock are unknown: show UTC, which the server knows too.
  const label = now === null ? formatUtc(t) : relative ? formatAgo(now - t) : LOCAL.format(t);
  return (
    <time dateTime={iso} title={formatUtc(t)} className="time">
      {label}
    </time>
  );
}

/** Local clock time for chart axes ("10:04" or "Nov 30" for multi-day spans). */
export function axisTime(t: number, spanMs: number): string {
  const d = new Date(t);
  if (spanMs > 2 * 86_400_000) return d.toLocaleDateString(undefined, { month: "short", day: "numeric" });
  const hm = d.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit", hour12: false });
  return spanMs > 86_400_000 ? `${d.toLocaleDateString(undefined, { day: "numeric" })} ${hm}` : hm;
}

export const tooltipTime = (t: number) => `${LOCAL.format(t)} (${formatUtc(t)})`;
