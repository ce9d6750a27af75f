"use client";

import { Time } from "./time";

/** "12 s ago" in the viewer's zone, the exact UTC time on hover. */
export function RelativeTime({ iso }: { iso: string }) {
  return <Time iso={iso} relative />;
}
