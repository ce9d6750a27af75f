// Group-id globs for alert rule overrides and silences: `*` matches any run of characters
// (including none), `?` exactly one; every other character, `.+[]()\` included, is literal.
// Matched without regular expressions (group ids are untrusted input) by the classic
// greedy-star backtracking walk, O(glob × text) in the worst case.

export function globMatch(glob: string, text: string): boolean {
  // Code points, so `?` matches one character of a non-BMP group id rather than half of one.
  const g = Array.from(glob);
  const t = Array.from(text);
  let gi = 0;
  let ti = 0;
  let starGi = -1;
  let starTi = 0;
  while (ti < t.length) {
    const c = g[gi];
    if (c === "*") {
      starGi = gi++;
      starTi = ti;
    } else if (c !== undefined && (c === "?" || c === t[ti])) {
      gi++;
      ti++;
    } else if (starGi >= 0) {
      gi = starGi + 1;
      ti = ++starTi;
    } else {
      return false;
    }
  }
  while (g[gi] === "*") gi++;
  return gi === g.length;
}

export interface GlobSpecificity {
  /** Characters other than `*` and `?`. */
  literals: number;
  /** Count of `*` and `?`. */
  wildcards: number;
}

export function globSpecificity(glob: string): GlobSpecificity {
  let literals = 0;
  let wildcards = 0;
  for (const c of glob) {
    if (c === "*" || c === "?") wildcards++;
    else literals++;
  }
  return { literals, wildcards };
}

/**
 * Orders two globs from less to more specific: more literal characters is more specific; on a
 * tie, fewer wildcards is (so `orders` beats `orders*`). Negative when `a` is less specific.
 */
export function compareGlobSpecificity(a: string, b: string): number {
  const sa = globSpecificity(a);
  const sb = globSpecificity(b);
  if (sa.literals !== sb.literals) return sa.literals - sb.literals;
  return sb.wildcards - sa.wildcards;
}
