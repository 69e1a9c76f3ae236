import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { TIME_STEPS, timeTickLabels, type TimeFormats } from '../utils/time-axis';

export interface TimeChartProps {
  /** Seconds since 1970. */
  x: number[];
  series: { label: string; values: number[]; color: string }[];
  /** Formats a y value for the axis and the legend (the page's locale). */
  formatValue: (value: number) => string;
  /** Formats an x value (seconds) for the legend. */
  formatTime: (seconds: number) => string;
  /** The time axis's formats (its labels follow the ticks' distance, see `timeTickLabels`). */
  timeFormats: TimeFormats;
  /** The legend's name of the time ("Time", "Zeit"; uPlot would say "Value"). */
  timeLabel: string;
  height?: number;
  /** Each value holds until the next one (counts that change at moments), instead of a line between them. */
  stepped?: boolean;
}

/** The last of `values`, formatted ('' when there is none). */
function latest(values: number[], format: (value: number) => string): string {
  const last = values.at(-1);
  return last === undefined ? '' : format(last);
}

/** A line chart over time with uPlot (loaded with this chunk only, never on the storefront's first load). */
export default function TimeChart({ x, series, formatValue, formatTime, timeFormats, timeLabel, height = 220, stepped = false }: TimeChartProps) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const width = Math.max(240, element.clientWidth);
    const paths = stepped ? uPlot.paths.stepped?.({ align: 1 }) : undefined;
    const [first, last] = [x.at(0) ?? 0, x.at(-1) ?? 0];
    const span = Math.max(last - first, 120);
    const plot = new uPlot(
      {
        width,
        height,
        scales: { x: { time: false } },
        axes: [
          {
            incrs: TIME_STEPS,
            values: (_, ticks, _axis, _space, step) => {
              const labels = timeTickLabels(ticks, step, span, timeFormats);
              // What the axis shows, for tests (the canvas holds no text).
              element.dataset.timeTicks = JSON.stringify(labels);
              return labels;
            },
          },
          { values: (_, ticks) => ticks.map((tick) => formatValue(tick)) },
        ],
        // Away from the cursor, the legend shows the latest values.
        series: [
          { label: timeLabel, value: (_, v, _s, idx) => (idx === null ? latest(x, formatTime) : v === null ? '' : formatTime(v)) },
          ...series.map((s) => ({
            label: s.label,
            stroke: s.color,
            width: 2,
            paths,
            value: (_: uPlot, v: number | null, _s: number, idx: number | null) => (idx === null ? latest(s.values, formatValue) : v === null ? '' : formatValue(v)),
          })),
        ],
      },
      // A chart of one moment (one minute of reactions) spans a minute either side of it.
      x.length === 1 ? [[first - 60, first, first + 60], ...series.map((s) => [null, s.values[0] ?? null, null])] : [x, ...series.map((s) => s.values)],
      element,
    );
    plot.setLegend({ idxs: [null, ...series.map(() => null)] });
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(240, element.clientWidth), height }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [x, series, formatValue, formatTime, timeFormats, timeLabel, height, stepped]);
  return <div ref={host} className="time-chart" aria-hidden="true" />;
}
