// Pure formatting for the dashboard: durations, offsets, relative times. No React, no I/O.

/** "850 ms", "12.3 s", "4 min 05 s", "3 h 12 min", "2 d 4 h"; "–" for null. */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return "–";
  const neg = ms < 0 ? "-" : "";
  const a = Math.abs(ms);
  if (a < 1000) return `${neg}${Math.round(a)} ms`;
  if (a < 60_000) return `${neg}${(a / 1000).toFixed(a < 10_000 ? 1 : 0)} s`;
  const s = Math.round(a / 1000);
  if (s < 3600) return `${neg}${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s`;
  const m = Math.round(s / 60);
  if (m < 1440) return `${neg}${Math.floor(m / 60)} h ${String(m % 60).padStart(2, "0")} min`;
  const h = Math.round(m / 60);
  return `${neg}${Math.floor(h / 24)} d ${h % 24} h`;
}

/** Lag in seconds as a duration ("–" when unknown). */
export const formatLagSeconds = (s: number | null | undefined) =>
  s === null || s === undefined ? "–" : formatDuration(s * 1000);

const DIGITS = /^-?\d+$/;

/** An offset or lag (decimal string, bigint or number) with thousands separators; exact for
 *  values beyond 2^53. "–" for null or non-numeric text. */
export function formatOffset(v: string | bigint | number | null | undefined): string {
  if (v === null || v === undefined) return "–";
  const text = typeof v === "number" ? (Number.isInteger(v) ? v.toFixed(0) : String(v)) : v.toString();
  if (!DIGITS.test(text)) return "–";
  const neg = text.startsWith("-");
  const digits = neg ? text.slice(1) : text;
  return `${neg ? "-" : ""}${digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}`;
}

/** Short form for axes and dense cells: 950, 12.3k, 4.5M, 1.2G, 3.4T. */
export function formatCompact(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return "–";
  const a = Math.abs(v);
  const units: [number, string][] = [
    [1e12, "T"],
    [1e9, "G"],
    [1e6, "M"],
    [1e3, "k"],
  ];
  for (const [n, u] of units) {
    if (a >= n) {
      const x = v / n;
      return `${Math.abs(x) < 10 ? x.toFixed(1).replace(/\.0$/, "") : Math.round(x)}${u}`;
    }
  }
  return String(Math.round(v));
}

/** "just now", "12 s ago", "5 min ago", "3 h ago", "2 d ago"; "in 5 s" for future times. A few
 *  seconds in the future is clock skew between server and browser: "just now". */
export function formatAgo(ms: number): string {
  if (ms < -5_000) return `in ${formatAgo(-ms).replace(/ ago$/, "")}`;
  if (ms < 0) return "just now";
  const s = Math.round(ms / 1000);
  if (s < 2) return "just now";
  if (s < 60) return `${s} s ago`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ago`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h} h ago`;
  return `${Math.floor(h / 24)} d ago`;
}

/** "2026-11-30 10:04:05 UTC": the exact time, for tooltips. */
export function formatUtc(t: number | string | Date): string {
  const d = new Date(t);
  if (Number.isNaN(d.getTime())) return "invalid time";
  return `${d
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d{3}Z$/, "")} UTC`;
}

/** A number from an API decimal string (lossy above 2^53; for charts only). */
export function toNumber(v: string | number | null | undefined): number | null {
  if (v === null || v === undefined) return null;
  const n = typeof v === "number" ? v : Number(v);
  return Number.isFinite(n) ? n : null;
}
