// Geometry of the time charts drawn in plain HTML (state swimlane, member-session Gantt):
// intervals clipped to a window and placed in percent of its width. Pure.

export interface Placed {
  /** Clipped bounds (epoch ms). */
  start: number;
  end: number;
  leftPct: number;
  widthPct: number;
  /** Still going on (no end known). */
  open: boolean;
  /** Cut by the window's edges. */
  clippedStart: boolean;
  clippedEnd: boolean;
}

/** Places [start, end ?? now] in [from, to]; null when it does not overlap the window. Bars get
 *  a minimum width so an instant stays visible. */
export function place(
  start: number,
  end: number | null,
  from: number,
  to: number,
  now: number,
  minWidthPct = 0.25,
): Placed | null {
  const span = to - from;
  if (!(span > 0)) return null;
  const e = end ?? Math.max(start, Math.min(now, to));
  if (e < from || start > to || (e === from && start < from)) return null;
  const s = Math.max(start, from);
  const c = Math.min(e, to);
  const leftPct = ((s - from) / span) * 100;
  const widthPct = Math.min(Math.max(((c - s) / span) * 100, minWidthPct), 100 - leftPct);
  return {
    start: s,
    end: c,
    leftPct,
    widthPct: Math.max(widthPct, 0),
    open: end === null,
    clippedStart: start < from,
    clippedEnd: e > to,
  };
}

export interface IntervalIn {
  state: string;
  from: string;
  to: string | null;
}

export interface SwimSegment extends Placed {
  state: string;
}

/** State intervals as segments of one lane, in time order, outside the window dropped. */
export function swimlaneSegments(
  intervals: IntervalIn[],
  from: number,
  to: number,
  now: number,
): SwimSegment[] {
  const out: SwimSegment[] = [];
  for (const i of intervals) {
    const p = place(Date.parse(i.from), i.to === null ? null : Date.parse(i.to), from, to, now, 0);
    if (p && p.end > p.start) out.push({ ...p, state: i.state });
  }
  return out.sort((a, b) => a.start - b.start);
}

export interface SessionIn {
  memberId: string;
  clientId: string;
  clientHost: string;
  groupInstanceId: string | null;
  joinedAt: string;
  leftAt: string | null;
  leftHow: string | null;
}

export interface GanttBar<S extends SessionIn = SessionIn> extends Placed {
  session: S;
}

/** One row per session overlapping the window, oldest join first. */
export function ganttBars<S extends SessionIn>(
  sessions: S[],
  from: number,
  to: number,
  now: number,
): GanttBar<S>[] {
  const out: GanttBar<S>[] = [];
  for (const s of sessions) {
    const p = place(Date.parse(s.joinedAt), s.leftAt === null ? null : Date.parse(s.leftAt), from, to, now);
    if (p) out.push({ ...p, session: s });
  }
  return out.sort((a, b) => a.start - b.start || a.session.memberId.localeCompare(b.session.memberId));
}

const STEPS = [
  1_000,
  5_000,
  15_000,
  30_000,
  60_000,
  300_000,
  900_000,
  1_800_000,
  3_600_000,
  3 * 3_600_000,
  6 * 3_600_000,
  12 * 3_600_000,
  86_400_000,
  2 * 86_400_000,
  7 * 86_400_000,
];

/** Round tick times inside [from, to], about `target` of them, aligned in the viewer's zone
 *  for steps of a day or less (minutes and hours line up with the clock). */
export function timeTicks(from: number, to: number, target = 6, tzOffsetMin = 0): number[] {
  const span = to - from;
  if (!(span > 0)) return [];
  const step = STEPS.find((s) => span / s <= target) ?? STEPS[STEPS.length - 1]!;
  const shift = -tzOffsetMin * 60_000;
  const first = Math.ceil((from + shift) / step) * step - shift;
  const ticks: number[] = [];
  for (let t = first; t <= to; t += step) ticks.push(t);
  return ticks;
}
