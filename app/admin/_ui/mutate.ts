"use client";

import { useMutation, useQueryClient, type QueryKey } from "@tanstack/react-query";

import { ApiError } from "@/components/use-api";

/** A refused change: the API's one-line `error` and its per-field `details`. */
export class MutationError extends ApiError {
  constructor(
    message: string,
    status: number,
    readonly details: { path: string; message: string }[],
  ) {
    super(message, status);
  }
}

/** Sends a JSON body (POST, PATCH, DELETE) and returns the JSON answer; throws MutationError. */
export async function sendJson<T>(
  method: "POST" | "PATCH" | "DELETE",
  url: string,
  body?: unknown,
): Promise<T> {
  const res = await fetch(url, {
    method,
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: "no-store",
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = text === "" ? null : JSON.parse(text);
  } catch {
    json = null;
  }
  if (!res.ok) {
    const o = (json ?? {}) as { error?: unknown; details?: unknown };
    const message = typeof o.error === "string" ? o.error : `${res.status} ${res.statusText}`;
    const details = Array.isArray(o.details) ? (o.details as { path: string; message: string }[]) : [];
    throw new MutationError(message, res.status, details);
  }
  return json as T;
}

/** A change through the API that refreshes `invalidate` (query key prefixes) when it succeeds. */
export function useSend<V, T = unknown>(
  request: (vars: V) => { method: "POST" | "PATCH" | "DELETE"; url: string; body?: unknown },
  invalidate: QueryKey[],
  onSuccess?: (data: T, vars: V) => void,
) {
  const client = useQueryClient();
  return useMutation<T, Error, V>({
    mutationFn: (vars) => {
      const r = request(vars);
      return sendJson<T>(r.method, r.url, r.body);
    },
    onSuccess: async (data, vars) => {
      onSuccess?.(data, vars);
      await Promise.all(invalidate.map((queryKey) => client.invalidateQueries({ queryKey })));
    },
  });
}

/** The detail message for one field (`path`), if the last attempt was refused for it. */
export function fieldError(error: Error | null, path: string): string | undefined {
  if (!(error instanceof MutationError)) return undefined;
  return error.details.find((d) => d.path === path || d.path.startsWith(`${path}.`))?.message;
}
