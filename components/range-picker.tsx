"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useState } from "react";

import {
  fromLocalInput,
  parseRange,
  PRESET_KEYS,
  resolveRange,
  toLocalInput,
  withRange,
  type ParsedRange,
  type PresetKey,
  type RangeSel,
} from "./range";

/** The time range of the page, from ?range= or ?from=&to=. */
export function useRange(fallback: PresetKey = "1h"): ParsedRange {
  return parseRange(useSearchParams(), fallback);
}

/** Preset buttons (15m … 7d) and a custom from/to in the viewer's zone; writes the URL. */
export function RangePicker({ fallback = "1h" }: { fallback?: PresetKey }) {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const { sel, problem } = parseRange(params, fallback);
  const [custom, setCustom] = useState<{ from: string; to: string } | null>(null);
  const [customError, setCustomError] = useState<string | null>(null);

  const go = (next: RangeSel) => {
    const q = withRange(params.toString(), next, fallback);
    router.replace(q ? `${pathname}?${q}` : pathname, { scroll: false });
  };
  const openCustom = () => {
    const w = resolveRange(sel, Date.now());
    setCustom({ from: toLocalInput(w.from), to: toLocalInput(w.to) });
    setCustomError(null);
  };
  const apply = () => {
    if (!custom) return;
    const from = fromLocalInput(custom.from);
    const to = fromLocalInput(custom.to);
    if (from === null || to === null) return setCustomError("give both times");
    if (from >= to) return setCustomError("from must be before to");
    if (to - from > 31 * 86_400_000) return setCustomError("31 days at most");
    setCustom(null);
    go({ kind: "custom", from, to });
  };

  return (
    <div className="range-picker" role="group" aria-label="Time range">
      {PRESET_KEYS.map((k) => (
        <button
          key={k}
          type="button"
          className="seg"
          aria-pressed={sel.kind === "preset" && sel.key === k}
          onClick={() => {
            setCustom(null);
            go({ kind: "preset", key: k });
          }}
        >
          {k}
        </button>
      ))}
      <button
        type="button"
        className="seg"
        aria-pressed={sel.kind === "custom"}
        aria-expanded={custom !== null}
        onClick={() => (custom ? setCustom(null) : openCustom())}
      >
        {sel.kind === "custom" ? "custom ✓" : "custom"}
      </button>
      {custom ? (
        <form
          className="range-custom"
          onSubmit={(e) => {
            e.preventDefault();
            apply();
          }}
        >
          <label>
            from{" "}
            <input
              type="datetime-local"
              value={custom.from}
              onChange={(e) => setCustom({ ...custom, from: e.target.value })}
            />
          </label>
          <label>
            to{" "}
            <input
              type="datetime-local"
              value={custom.to}
              onChange={(e) => setCustom({ ...custom, to: e.target.value })}
            />
          </label>
          <button type="submit" className="btn">
            Apply
          </button>
          {customError ? <span className="error-text">{customError}</span> : null}
        </form>
      ) : null}
      {problem ? (
        <span className="error-text" role="status">
          {problem}: showing the last {fallback}
        </span>
      ) : null}
    </div>
  );
}
