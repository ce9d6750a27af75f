"use client";

import type { ReactNode } from "react";

import { Fetching } from "./feedback";

/** A titled card; `fetching` shows a quiet dot while fresh data loads in the background. */
export function Panel({
  title,
  actions,
  fetching = false,
  children,
  testId,
  className,
}: {
  title: ReactNode;
  actions?: ReactNode;
  fetching?: boolean;
  children: ReactNode;
  testId?: string;
  className?: string;
}) {
  return (
    <section className={`card panel${className ? ` ${className}` : ""}`} data-testid={testId}>
      <header className="panel-head">
        <h2>
          {title}
          <Fetching active={fetching} />
        </h2>
        {actions ? <div className="panel-actions">{actions}</div> : null}
      </header>
      {children}
    </section>
  );
}
