// Time ranges in the URL: ?range=1h (a preset ending now, moving with it) or ?from=&to= (a fixed
// window, ISO-8601 in UTC). Pure.
import { MAX_WINDOW_MS, parseTime } from "@/lib/api/params";

export const RANGE_PRESETS = {
  "15m": 15 * 60_000,
  "1h": 3_600_000,
  "6h": 6 * 3_600_000,
  "24h": 24 * 3_600_000,
  "7d": 7 * 24 * 3_600_000,
} as const;
export type PresetKey = keyof typeof RANGE_PRESETS;
export const PRESET_KEYS = Object.keys(RANGE_PRESETS) as PresetKey[];

export type RangeSel = { kind: "preset"; key: PresetKey } | { kind: "custom"; from: number; to: number };

export interface ParsedRange {
  sel: RangeSel;
  /** Why the URL's range was not usable (then the default preset is used). */
  problem: string | null;
}

interface ParamSource {
  get(name: string): string | null;
}

const isPreset = (v: string): v is PresetKey => Object.hasOwn(RANGE_PRESETS, v);

export function parseRange(params: ParamSource, fallback: PresetKey = "1h"): ParsedRange {
  const range = params.get("range");
  const fromText = params.get("from");
  const toText = params.get("to");
  const def: RangeSel = { kind: "preset", key: fallback };
  if (fromText || toText) {
    const from = fromText ? parseTime(fromText) : null;
    const to = toText ? parseTime(toText) : null;
    if (from === null || to === null) return { sel: def, problem: "from and to must both be valid times" };
    if (from >= to) return { sel: def, problem: "from must be before to" };
    if (to - from > MAX_WINDOW_MS) return { sel: def, problem: "the window may span 31 days at most" };
    return { sel: { kind: "custom", from, to }, problem: null };
  }
  if (range) {
    return isPreset(range)
      ? { sel: { kind: "preset", key: range }, problem: null }
      : { sel: def, problem: `unknown range "${range.slice(0, 20)}"` };
  }
  return { sel: def, problem: null };
}

/** The concrete window at `now`; `live` when it ends now (and so should keep refreshing). */
export function resolveRange(sel: RangeSel, now: number): { from: number; to: number; live: boolean } {
  if (sel.kind === "preset") return { from: now - RANGE_PRESETS[sel.key], to: now, live: true };
  return { from: sel.from, to: sel.to, live: sel.to >= now };
}

const iso = (t: number) => new Date(t).toISOString().replace(/\.000Z$/, "Z");

/** The URL parameters for a selection (the others, range/from/to, are to be removed). */
export function rangeParams(sel: RangeSel): Record<string, string> {
  return sel.kind === "preset" ? { range: sel.key } : { from: iso(sel.from), to: iso(sel.to) };
}

/** `search` with the range replaced (other parameters kept, in order). */
export function withRange(search: string, sel: RangeSel, fallback: PresetKey = "1h"): string {
  const p = new URLSearchParams(search);
  p.delete("range");
  p.delete("from");
  p.delete("to");
  if (!(sel.kind === "preset" && sel.key === fallback))
    for (const [k, v] of Object.entries(rangeParams(sel))) p.set(k, v);
  return p.toString();
}

/** A stable key for react-query: presets by name (the window moves), custom by bounds. */
export const rangeKey = (sel: RangeSel) => (sel.kind === "preset" ? sel.key : `${sel.from}-${sel.to}`);

/** Label of a selection: "Last 1h" or the two bounds. */
export function rangeLabel(sel: RangeSel): string {
  if (sel.kind === "preset") return `Last ${sel.key}`;
  return `${iso(sel.from)} – ${iso(sel.to)}`;
}

/** The value of an <input type="datetime-local"> for an instant, in the viewer's zone. */
export function toLocalInput(t: number): string {
  const d = new Date(t);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The instant of an <input type="datetime-local"> value (viewer's zone); null when empty/invalid. */
export function fromLocalInput(v: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(v)) return null;
  const t = new Date(v).getTime();
  return Number.isNaN(t) ? null : t;
}
