import type { DashboardRow } from '@switchyard/contract/logs';

/** What the chart counts per day. */
export type UsageMetric = 'quota' | 'requests' | 'tokens';
export const USAGE_METRICS: UsageMetric[] = ['quota', 'requests', 'tokens'];

/** Models drawn on their own; the rest are summed as one "other" series. */
export const MAX_SERIES = 6;

const DAY = 86400;

/** The server groups by UTC day: every "YYYY-MM-DD" from the day of `start` to the day of `end`. */
export function utcDays(start: number, end: number): string[] {
  const days: string[] = [];
  for (let day = Math.floor(start / DAY); day <= Math.floor(end / DAY); day++) {
    days.push(new Date(day * DAY * 1000).toISOString().slice(0, 10));
  }
  return days;
}

/** The last `count` UTC days up to now: from the start of the first day to `now`. */
export function lastDays(count: number, now = Math.floor(Date.now() / 1000)): { start: number; end: number } {
  return { start: (Math.floor(now / DAY) - (count - 1)) * DAY, end: now };
}

/** A "YYYY-MM-DD" range chosen in date inputs, read as UTC days like the server's grouping. */
export function dayRange(from: string, to: string): { start: number; end: number } | null {
  const start = Date.parse(`${from}T00:00:00Z`);
  const end = Date.parse(`${to}T00:00:00Z`);
  if (Number.isNaN(start) || Number.isNaN(end) || start > end) return null;
  return { start: start / 1000, end: end / 1000 + DAY - 1 };
}

export function metricValue(row: DashboardRow, metric: UsageMetric): number {
  switch (metric) {
    case 'quota':
      return row.Quota;
    case 'requests':
      return row.RequestCount;
    case 'tokens':
      return row.PromptTokens + row.CompletionTokens;
  }
}

export interface UsageSeries {
  name: string;
  /** The sum of the models past MAX_SERIES. */
  other: boolean;
  values: number[];
  total: number;
}

export interface UsageChartData {
  days: string[];
  series: UsageSeries[];
  dayTotals: number[];
  max: number;
}

/** Per-day values of each model (largest first), the smaller ones folded into "other". */
export function buildUsageChart(rows: DashboardRow[], days: string[], metric: UsageMetric): UsageChartData {
  const index = new Map(days.map((day, i) => [day, i]));
  const byModel = new Map<string, number[]>();
  for (const row of rows) {
    const i = index.get(row.Day);
    if (i === undefined) continue;
    const values = byModel.get(row.ModelName) ?? days.map(() => 0);
    values[i] = (values[i] ?? 0) + metricValue(row, metric);
    byModel.set(row.ModelName, values);
  }
  const ranked = [...byModel]
    .map(([name, values]) => ({ name, other: false, values, total: sum(values) }))
    .filter((series) => series.total > 0)
    .sort((a, b) => b.total - a.total || a.name.localeCompare(b.name));
  const series = ranked.slice(0, ranked.length > MAX_SERIES ? MAX_SERIES - 1 : MAX_SERIES);
  const rest = ranked.slice(series.length);
  if (rest.length > 0) {
    const values = days.map((_, i) => sum(rest.map((s) => s.values[i] ?? 0)));
    series.push({ name: '', other: true, values, total: sum(values) });
  }
  const dayTotals = days.map((_, i) => sum(series.map((s) => s.values[i] ?? 0)));
  return { days, series, dayTotals, max: Math.max(0, ...dayTotals) };
}

export interface UsageTotals {
  quota: number;
  requests: number;
  tokens: number;
  models: number;
}

export function usageTotals(rows: DashboardRow[]): UsageTotals {
  return {
    quota: sum(rows.map((row) => row.Quota)),
    requests: sum(rows.map((row) => row.RequestCount)),
    tokens: sum(rows.map((row) => row.PromptTokens + row.CompletionTokens)),
    models: new Set(rows.map((row) => row.ModelName)).size,
  };
}

/** Round axis steps (1, 2 or 5 × 10ⁿ) covering `max` in about `count` steps; whole steps when `integer`. */
export function niceTicks(max: number, integer: boolean, count = 4): number[] {
  if (!(max > 0)) return [0, 1];
  const raw = max / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const norm = raw / magnitude;
  let step = (norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 5 ? 5 : 10) * magnitude;
  if (integer) step = Math.max(1, Math.round(step));
  const ticks: number[] = [];
  for (let tick = 0; tick < max + step / 2; tick += step) ticks.push(Number(tick.toPrecision(12)));
  if ((ticks.at(-1) ?? 0) < max) ticks.push(Number((ticks.length * step).toPrecision(12)));
  return ticks;
}

const sum = (values: number[]): number => values.reduce((total, value) => total + value, 0);
