"use client";

import {
  Bar,
  BarChart,
  CartesianGrid,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
  type TooltipContentProps,
} from "recharts";

import type { RebalanceStats } from "./api-types";
import { axisTime, tooltipTime } from "./time";

function BucketTooltip({ active, payload }: TooltipContentProps) {
  const row = payload[0]?.payload as { at: number; count: number } | undefined;
  if (!active || !row) return null;
  return (
    <div className="tooltip-box">
      <p>
        <strong>{tooltipTime(row.at)}</strong>
      </p>
      <p>
        {row.count} rebalance{row.count === 1 ? "" : "s"}
      </p>
    </div>
  );
}

/** Rebalances per bucket (one bar each), from GET /api/stats/rebalances. */
export function RebalanceChart({ stats }: { stats: RebalanceStats }) {
  const rows = stats.buckets.map((b) => ({ at: Date.parse(b.at), count: b.count }));
  const span = Date.parse(stats.to) - Date.parse(stats.from);
  return (
    <div className="chart small" data-testid="rebalance-chart">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={rows} margin={{ top: 6, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid stroke="var(--chart-grid)" vertical={false} />
          <XAxis
            dataKey="at"
            tickFormatter={(t: number) => axisTime(t, span)}
            stroke="var(--line-strong)"
            minTickGap={30}
          />
          <YAxis allowDecimals={false} stroke="var(--line-strong)" width={36} />
          <Tooltip content={BucketTooltip} cursor={{ fill: "var(--hover)" }} isAnimationActive={false} />
          <Bar dataKey="count" name="rebalances" fill="var(--chart-1)" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
