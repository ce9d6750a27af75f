"use client";

import { keepPreviousData, QueryClient, useQuery, type QueryKey } from "@tanstack/react-query";

/** A non-2xx answer of the JSON API: its `{error}` message and status. */
export class ApiError extends Error {
  override name = "ApiError";
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

function errorMessage(body: unknown, status: number, statusText: string): string {
  if (body && typeof body === "object" && "error" in body && typeof body.error === "string")
    return body.error;
  return `${status} ${statusText}`.trim();
}

export async function fetchJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  const res = await fetch(url, { signal, headers: { Accept: "application/json" }, cache: "no-store" });
  const text = await res.text();
  let body: unknown;
  try {
    body = text === "" ? null : JSON.parse(text);
  } catch {
    body = null;
  }
  if (!res.ok) throw new ApiError(errorMessage(body, res.status, res.statusText), res.status);
  if (body === null) throw new ApiError("the server answered with no JSON", res.status);
  return body as T;
}

/** Live data refreshes every 5 s by default. */
export const LIVE_MS = 5_000;

/**
 * GET a JSON API resource. `url` may be a function, called at every fetch, so a window ending
 * "now" moves with each refresh. The previous data stays on screen while a new key loads (no
 * layout jank). Client errors (4xx) are not retried: asking again gives the same answer.
 */
export function useApi<T>(
  key: QueryKey,
  url: string | (() => string) | null,
  opts: { refetchMs?: number | false } = {},
) {
  return useQuery({
    queryKey: key,
    queryFn: ({ signal }) => fetchJson<T>(typeof url === "function" ? url() : (url ?? ""), signal),
    enabled: url !== null,
    refetchInterval: opts.refetchMs ?? LIVE_MS,
    placeholderData: keepPreviousData,
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
  });
}

export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 2_000, refetchOnWindowFocus: true, refetchIntervalInBackground: false },
    },
  });
}
