// Input rules shared by the read API and the CLI (scripts/forensics.ts): times, windows, limits,
// group ids and query strings. Pure: no I/O, `now` passed in.
import { z } from "zod";

export const HOUR_MS = 3_600_000;
export const MAX_WINDOW_MS = 31 * 24 * HOUR_MS;
export const MAX_GROUP_ID_CHARS = 10_000;

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|z|[+-]\d{2}:?\d{2})?)?$/;
const EPOCH_MS = /^\d{1,16}$/;
// The range a JS Date can hold.
const MAX_TIME_MS = 8.64e15;

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** Epoch ms of an ISO-8601 date(-time) or a string of digits (epoch ms); null when neither.
 *  A date-time without an offset is UTC. Impossible dates (Feb 30, 25:00) are rejected rather
 *  than rolled over as Date.parse does. */
export function parseTime(s: string): number | null {
  const text = s.trim();
  if (EPOCH_MS.test(text)) {
    const t = Number(text);
    return t <= MAX_TIME_MS ? t : null;
  }
  const m = ISO.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6]].map((x) =>
    x === undefined ? 0 : Number(x),
  ) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const ms = m[7] === undefined ? 0 : Math.floor(Number(`0.${m[7]}`) * 1000);
  let offsetMin = 0;
  const tz = m[8];
  if (tz !== undefined && tz.toUpperCase() !== "Z") {
    const digits = tz.slice(1).replace(":", "");
    const oh = Number(digits.slice(0, 2));
    const om = Number(digits.slice(2));
    if (oh > 23 || om > 59) return null;
    offsetMin = (tz.startsWith("-") ? -1 : 1) * (oh * 60 + om);
  }
  return Date.UTC(year, month - 1, day, hour, minute, second, ms) - offsetMin * 60_000;
}

export const ZTime = z.string().transform((s, ctx) => {
  const t = parseTime(s);
  if (t === null) {
    ctx.addIssue({
      code: "custom",
      message: `"${s.slice(0, 60)}" is neither ISO-8601 nor epoch milliseconds`,
    });
    return z.NEVER;
  }
  return new Date(t);
});

export interface Window {
  from: Date;
  to: Date;
}

export interface WindowRules {
  /** Length of the window when `from` is not given (ending at `to`, default now). */
  defaultMs?: number;
  maxMs?: number;
  /** How the two bounds are named in messages ("from"/"to", "--from"/"--to"). */
  names?: { from: string; to: string };
}

/** Fills the defaults and checks the window: from < to, span at most maxMs. Issues are added
 *  to ctx under the bound's name; returns null when the window is invalid. */
export function resolveWindow(
  w: { from?: Date | undefined; to?: Date | undefined },
  now: number,
  ctx: z.RefinementCtx,
  rules: WindowRules = {},
): Window | null {
  const { defaultMs = HOUR_MS, maxMs = MAX_WINDOW_MS, names = { from: "from", to: "to" } } = rules;
  const to = w.to ?? new Date(now);
  const from = w.from ?? new Date(to.getTime() - defaultMs);
  if (from.getTime() >= to.getTime()) {
    ctx.addIssue({ code: "custom", path: [names.from], message: `${names.from} must be before ${names.to}` });
    return null;
  }
  if (to.getTime() - from.getTime() > maxMs) {
    ctx.addIssue({
      code: "custom",
      path: [names.from],
      message: `the window may span ${Math.round(maxMs / 86_400_000)} days at most`,
    });
    return null;
  }
  return { from, to };
}

/** A whole number within [min, max], from query text. */
export const zInt = (name: string, min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,12}$/, `${name} must be a whole number`)
    .transform(Number)
    .pipe(
      z
        .number()
        .min(min, `${name} must be at least ${min}`)
        .max(max, `${name} may be ${max.toLocaleString("en-US")} at most`),
    );

export const zBool = (name: string) =>
  z.enum(["true", "false"], `${name} must be true or false`).transform((v) => v === "true");

export const zEnum = <const T extends readonly [string, ...string[]]>(name: string, values: T) =>
  z.enum(values, `${name} must be one of ${values.join(", ")}`);

export const ZGroupId = z
  .string()
  .min(1, "the group id is empty")
  .max(
    MAX_GROUP_ID_CHARS,
    `a group id may be ${MAX_GROUP_ID_CHARS.toLocaleString("en-US")} characters at most`,
  );

/** A cluster by name (letters, digits, space, `.`, `-`, `_`) or by id (uuid). */
export const ZClusterRef = z
  .string()
  .min(1, "the cluster is empty")
  .max(200, "a cluster name may be 200 characters at most");

/**
 * Query text as an object for a strict zod schema: unknown parameters are rejected by the
 * schema, a parameter given twice is an error unless listed in `repeatable` (those come as
 * arrays), and empty values mean "not given".
 */
export function queryObject(
  params: URLSearchParams,
  repeatable: readonly string[] = [],
): { values: Record<string, string | string[]>; repeated: string[] } {
  const values: Record<string, string | string[]> = {};
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const [key, value] of params) {
    if (repeatable.includes(key)) {
      const list = (values[key] as string[] | undefined) ?? [];
      if (value !== "") list.push(value);
      values[key] = list;
      continue;
    }
    if (seen.has(key)) repeated.add(key);
    seen.add(key);
    if (value !== "") values[key] = value;
  }
  return { values, repeated: [...repeated] };
}

export const windowFields = { from: ZTime.optional(), to: ZTime.optional() };

/** A transform that resolves optional from/to into a checked window (see resolveWindow). */
export function withWindow<T extends { from?: Date | undefined; to?: Date | undefined }>(
  rules: WindowRules = {},
  now: () => number = Date.now,
) {
  return (v: T, ctx: z.RefinementCtx): Omit<T, "from" | "to"> & Window => {
    const w = resolveWindow(v, now(), ctx, rules);
    return w === null ? z.NEVER : { ...v, ...w };
  };
}
