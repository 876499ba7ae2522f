import type { UsageChartData } from './dashboard-series';

/** The chart's height in CSS pixels, axes included; the loading placeholder keeps the same. */
export const CHART_HEIGHT = 240;

const COLORS = ['blue', 'teal', 'grape', 'orange', 'cyan', 'pink'];

/** The Mantine colour variable of a series, shared by the bars, the legend and the tooltip. */
export const seriesColorVar = (index: number, other: boolean): string =>
  `--mantine-color-${other ? 'gray' : COLORS[index % COLORS.length]}-6`;

export const seriesColor = (index: number, other: boolean): string => `var(${seriesColorVar(index, other)})`;

/**
 * Bars stacked by overdrawing: uPlot has no stacking, so the first bar drawn is the whole day's
 * total (in the last series' colour) and each later one covers it up to a smaller running sum,
 * ending with the first series alone. Entry j is the running sum of series 0 … k-1-j.
 */
export function stackedBars(data: UsageChartData): { seriesIndex: number; values: number[] }[] {
  const sums: number[][] = [];
  let running = data.days.map(() => 0);
  for (const series of data.series) {
    running = running.map((total, i) => total + (series.values[i] ?? 0));
    sums.push(running);
  }
  return sums.map((values, seriesIndex) => ({ seriesIndex, values })).reverse();
}

/** Indices of the days to label on an axis `plotWidth` pixels wide, about 46 pixels apart. */
export function labelledDays(count: number, plotWidth: number): number[] {
  const every = Math.max(1, Math.ceil(count / Math.max(1, Math.floor(plotWidth / 46))));
  return Array.from({ length: count }, (_, i) => i).filter((i) => i % every === 0);
}
