"use client";

import { useEffect, useState } from "react";

/** "12 s ago" in the viewer's zone, the exact UTC time on hover. */
export function RelativeTime({ iso }: { iso: string }) {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    setNow(Date.now());
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, []);
  const t = Date.parse(iso);
  const label = now === null ? new Date(t).toISOString() : formatAgo(now - t);
  return (
    <time dateTime={iso} title={`${new Date(t).toUTCString()}`}>
      {label}
    </time>
  );
}

function formatAgo(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s ago`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min ago`;
  return `${Math.round(m / 60)} h ago`;
}
