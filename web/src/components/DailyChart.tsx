import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";

const WHOLE_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000, 1_000_000];

export interface DailySeries {
  label: string;
  color: string;
  values: number[];
}

/**
 * A bar chart of values per UTC day (uPlot on a canvas), sized to its container. The same numbers
 * are in a table that screen readers (and tests) read, so the chart never hides its data.
 */
export function DailyChart({ title, days, series, height = 220 }: { title: string; days: string[]; series: DailySeries[]; height?: number }) {
  const holder = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = holder.current;
    if (!element) return;
    const xs = days.map((day) => Date.parse(day) / 1000);
    const bars = uPlot.paths.bars!({ size: [0.7, 40], align: 0 });
    const plot = new uPlot(
      {
        width: Math.max(element.clientWidth, 200),
        height,
        legend: { show: series.length > 1 },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max * 1.1)] } },
        // Counts and credits are whole numbers: no 0.2-step ticks.
        axes: [
          { stroke: "#5b6475", grid: { show: false } },
          { stroke: "#5b6475", grid: { stroke: "#eef0f4" }, size: 56, incrs: WHOLE_STEPS },
        ],
        series: [{}, ...series.map((s) => ({ label: s.label, stroke: s.color, fill: `${s.color}cc`, width: 0, paths: bars, points: { show: false } }))],
      },
      [xs, ...series.map((s) => s.values)],
      element,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(element.clientWidth, 200), height }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [days, series, height]);

  return (
    <figure className="chart" aria-label={title}>
      <figcaption>{title}</figcaption>
      <div ref={holder} aria-hidden="true" />
      <div className="visually-hidden">
        <table>
          <caption>{title}</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              {series.map((s) => (
                <th scope="col" key={s.label}>
                  {s.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {days.map((day, i) => (
              <tr key={day}>
                <th scope="row">{day.slice(0, 10)}</th>
                {series.map((s) => (
                  <td key={s.label}>{s.values[i]}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
