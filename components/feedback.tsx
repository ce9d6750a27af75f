"use client";

import type { ReactNode } from "react";

/** Grey placeholder blocks of the final content's size, so nothing jumps when data arrives. */
export function Skeleton({
  rows = 3,
  height = "1rem",
  label = "Loading",
}: {
  rows?: number;
  height?: string;
  label?: string;
}) {
  return (
    <div className="skeleton" role="status" aria-live="polite" aria-label={label}>
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="skeleton-line" style={{ height, width: `${100 - ((i * 17) % 40)}%` }} />
      ))}
    </div>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty-state" data-testid="empty-state">
      <p className="empty-title">{title}</p>
      {children ? <div className="muted">{children}</div> : null}
    </div>
  );
}

/** The API's `{error}` message and a way to ask again. */
export function ErrorState({
  error,
  onRetry,
  title = "Could not load this",
}: {
  error: unknown;
  onRetry?: () => unknown;
  title?: string;
}) {
  const message = error instanceof Error ? error.message : String(error);
  return (
    <div className="error-state" role="alert" data-testid="error-state">
      <p>
        <strong>{title}:</strong> <span className="error-text">{message}</span>
      </p>
      {onRetry ? (
        <button type="button" className="btn" onClick={() => void onRetry()}>
          Retry
        </button>
      ) : null}
    </div>
  );
}

/** A small "refreshing" dot for panels whose data is being fetched in the background. */
export function Fetching({ active }: { active: boolean }) {
  return <span className={`fetching${active ? " on" : ""}`} aria-hidden="true" />;
}
