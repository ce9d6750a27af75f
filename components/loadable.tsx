"use client";

import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";

import { ErrorState, Skeleton } from "./feedback";

/** Skeleton while the first answer loads, the error with a retry when it fails, then the data;
 *  a failed refresh keeps the earlier data on screen under a notice. */
export function Loadable<T>({
  q,
  rows = 3,
  height,
  children,
}: {
  q: UseQueryResult<T>;
  rows?: number;
  height?: string;
  children: (data: T) => ReactNode;
}) {
  if (q.data === undefined) {
    return q.isError ? (
      <ErrorState error={q.error} onRetry={() => q.refetch()} />
    ) : (
      <Skeleton rows={rows} height={height} />
    );
  }
  return (
    <>
      {q.isError ? (
        <ErrorState
          error={q.error}
          onRetry={() => q.refetch()}
          title="Refresh failed, showing earlier data"
        />
      ) : null}
      {children(q.data)}
    </>
  );
}
