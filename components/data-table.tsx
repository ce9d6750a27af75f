"use client";

import Link from "next/link";
import type { ReactNode } from "react";

// Helpers for dense tables. Untrusted names (group, member, client ids) are plain React text:
// escaped, truncated by CSS, the full value in the title.

export type SortOrder = "asc" | "desc";

/** A column header that sorts: a real <button> (keyboard usable) inside a <th aria-sort>. */
export function SortHeader<K extends string>({
  label,
  sortKey,
  sort,
  order,
  onSort,
  numeric = false,
  title,
}: {
  label: string;
  sortKey: K;
  sort: K;
  order: SortOrder;
  onSort: (key: K) => void;
  numeric?: boolean;
  title?: string;
}) {
  const active = sort === sortKey;
  return (
    <th
      scope="col"
      aria-sort={active ? (order === "asc" ? "ascending" : "descending") : "none"}
      className={numeric ? "num" : undefined}
    >
      <button type="button" className="sort-button" onClick={() => onSort(sortKey)} title={title}>
        {label}
        <span className="sort-arrow" aria-hidden="true">
          {active ? (order === "asc" ? "▲" : "▼") : "↕"}
        </span>
      </button>
    </th>
  );
}

/** Text cut with an ellipsis at `max` (CSS width), the whole of it on hover. */
export function Truncate({
  text,
  max = "24rem",
  mono = true,
  className,
}: {
  text: string;
  max?: string;
  mono?: boolean;
  className?: string;
}) {
  return (
    <span
      className={`truncate${mono ? " mono" : ""}${className ? ` ${className}` : ""}`}
      style={{ maxWidth: max }}
      title={text}
    >
      {text}
    </span>
  );
}

/** A link whose visible text is untrusted: truncated, full value in the title. */
export function IdLink({ href, text, max }: { href: string; text: string; max?: string }) {
  return (
    <Link href={href} className="id-link">
      <Truncate text={text} max={max} />
    </Link>
  );
}

/** Sorts rows on the client (small tables: members, partitions). */
export function sortRows<T>(rows: T[], key: (r: T) => string | number | null, order: SortOrder): T[] {
  const dir = order === "asc" ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = key(a);
    const y = key(b);
    if (x === y) return 0;
    if (x === null) return 1;
    if (y === null) return -1;
    return (x < y ? -1 : 1) * dir;
  });
}

export function Num({ children, title }: { children: ReactNode; title?: string }) {
  return (
    <td className="num mono" title={title}>
      {children}
    </td>
  );
}
