"use client";

import {
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ReferenceArea,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
  type TooltipContentProps,
} from "recharts";

import type { EpisodeRow, LagResponse } from "./api-types";
import { EmptyState } from "./feedback";
import { formatCompact, formatDuration, formatOffset, toNumber } from "./format";
import { axisTime, tooltipTime } from "./time";

interface Row {
  at: number;
  total: number | null;
  max: number | null;
  seconds: number | null;
  totalText: string | null;
  maxText: string | null;
}

export function lagRows(points: LagResponse["points"]): Row[] {
  return points.map((p) => ({
    at: Date.parse(p.at),
    total: toNumber(p.totalLag),
    max: toNumber(p.maxLag),
    seconds: p.lagSeconds,
    totalText: p.totalLag,
    maxText: p.maxLag,
  }));
}

function LagTooltip({ active, payload, label }: TooltipContentProps) {
  if (!active || payload.length === 0) return null;
  const row = payload[0]?.payload as Row | undefined;
  if (!row) return null;
  return (
    <div className="tooltip-box">
      <p>
        <strong>{tooltipTime(Number(label))}</strong>
      </p>
      <p>
        total lag <span className="mono">{formatOffset(row.totalText)}</span>
      </p>
      <p>
        max partition lag <span className="mono">{formatOffset(row.maxText)}</span>
      </p>
      <p>
        lag in time{" "}
        <span className="mono">{formatDuration(row.seconds === null ? null : row.seconds * 1000)}</span>
      </p>
    </div>
  );
}

/** Lag in offsets (left axis) and in seconds (right axis) over the window, with each rebalance
 *  episode shaded from its lower bound to its end and a line where it was detected. */
export function LagChart({
  lag,
  episodes,
  from,
  to,
}: {
  lag: LagResponse;
  episodes: EpisodeRow[];
  from: number;
  to: number;
}) {
  const rows = lagRows(lag.points);
  if (rows.length === 0)
    return (
      <EmptyState title="No lag recorded in this window">
        The group has no committed offsets here yet.
      </EmptyState>
    );
  const span = to - from;
  const shown = episodes.filter((e) => e.rebalance || e.causeKinds.length > 0);
  return (
    <div className="chart" data-testid="lag-chart">
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid stroke="var(--chart-grid)" vertical={false} />
          <XAxis
            dataKey="at"
            type="number"
            scale="time"
            domain={[from, to]}
            allowDataOverflow
            tickFormatter={(t: number) => axisTime(t, span)}
            stroke="var(--line-strong)"
            minTickGap={40}
          />
          <YAxis
            yAxisId="off"
            tickFormatter={(v: number) => formatCompact(v)}
            stroke="var(--line-strong)"
            width={52}
            allowDecimals={false}
            label={{
              value: "offsets",
              angle: -90,
              position: "insideLeft",
              fill: "var(--muted)",
              fontSize: 11,
            }}
          />
          <YAxis
            yAxisId="sec"
            orientation="right"
            tickFormatter={(v: number) => formatDuration(v * 1000).replace(/ 0+ (s|min)$/, "")}
            stroke="var(--line-strong)"
            width={64}
            label={{
              value: "seconds",
              angle: 90,
              position: "insideRight",
              fill: "var(--muted)",
              fontSize: 11,
            }}
          />
          <Tooltip content={LagTooltip} isAnimationActive={false} />
          <Legend verticalAlign="top" height={24} iconSize={10} />
          {shown.map((e) => {
            const start = Math.max(Date.parse(e.startedAfter), from);
            const end = Math.min(e.endedBy ? Date.parse(e.endedBy) : to, to);
            return (
              <ReferenceArea
                key={`a-${e.startedAfter}-${e.detectedAt}`}
                yAxisId="off"
                x1={start}
                x2={Math.max(end, start + span / 400)}
                fill="var(--marker)"
                fillOpacity={0.12}
                strokeOpacity={0}
                ifOverflow="hidden"
              />
            );
          })}
          {shown.map((e) => (
            <ReferenceLine
              key={`l-${e.startedAfter}-${e.detectedAt}`}
              yAxisId="off"
              x={Date.parse(e.detectedAt)}
              stroke="var(--marker)"
              strokeDasharray="3 3"
              ifOverflow="hidden"
            />
          ))}
          <Line
            yAxisId="off"
            type="stepAfter"
            dataKey="total"
            name="total lag (offsets)"
            stroke="var(--chart-1)"
            dot={false}
            strokeWidth={1.6}
            isAnimationActive={false}
            connectNulls={false}
          />
          <Line
            yAxisId="off"
            type="stepAfter"
            dataKey="max"
            name="max partition lag"
            stroke="var(--chart-1)"
            strokeDasharray="4 3"
            strokeOpacity={0.6}
            dot={false}
            isAnimationActive={false}
          />
          <Line
            yAxisId="sec"
            type="stepAfter"
            dataKey="seconds"
            name="lag (seconds)"
            stroke="var(--chart-2)"
            dot={false}
            strokeWidth={1.6}
            isAnimationActive={false}
          />
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}
