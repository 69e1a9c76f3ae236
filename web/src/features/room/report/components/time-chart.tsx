import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface TimeChartProps {
  /** Seconds since 1970. */
  x: number[];
  series: { label: string; values: number[]; color: string }[];
  /** Formats a y value for the axis and the legend (the page's locale). */
  formatValue: (value: number) => string;
  /** Formats an x value (seconds) for the axis and the legend. */
  formatTime: (seconds: number) => string;
  /** The legend's name of the time ("Time", "Zeit"; uPlot would say "Value"). */
  timeLabel: string;
  height?: number;
  /** Each value holds until the next one (counts that change at moments), instead of a line between them. */
  stepped?: boolean;
}

/** A line chart over time with uPlot (loaded with this chunk only, never on the storefront's first load). */
export default function TimeChart({ x, series, formatValue, formatTime, timeLabel, height = 220, stepped = false }: TimeChartProps) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const width = Math.max(240, element.clientWidth);
    const paths = stepped ? uPlot.paths.stepped?.({ align: 1 }) : undefined;
    const plot = new uPlot(
      {
        width,
        height,
        scales: { x: { time: false } },
        axes: [
          { values: (_, ticks) => ticks.map((tick) => formatTime(tick)) },
          { values: (_, ticks) => ticks.map((tick) => formatValue(tick)) },
        ],
        series: [
          { label: timeLabel, value: (_, v) => (v === null ? '' : formatTime(v)) },
          ...series.map((s) => ({ label: s.label, stroke: s.color, width: 2, paths, value: (_: uPlot, v: number | null) => (v === null ? '' : formatValue(v)) })),
        ],
      },
      [x, ...series.map((s) => s.values)],
      element,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(240, element.clientWidth), height }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [x, series, formatValue, formatTime, timeLabel, height, stepped]);
  return <div ref={host} className="time-chart" aria-hidden="true" />;
}
