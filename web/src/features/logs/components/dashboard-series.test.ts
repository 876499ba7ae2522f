import type { DashboardRow } from '@switchyard/contract/logs';
import { describe, expect, it } from 'vitest';
import { buildUsageChart, dayRange, lastDays, niceTicks, usageTotals, utcDays } from './dashboard-series';

const row = (day: string, model: string, quota: number, requests = 1, tokens = 10): DashboardRow => ({
  Day: day,
  ModelName: model,
  Quota: quota,
  RequestCount: requests,
  PromptTokens: tokens,
  CompletionTokens: tokens * 2,
});

describe('usage dashboard data', () => {
  it('lists every UTC day of the range, the last N days ending today', () => {
    const now = Date.UTC(2024, 4, 10, 15, 0, 0) / 1000;
    const range = lastDays(7, now);
    expect(range.end).toBe(now);
    expect(utcDays(range.start, range.end)).toEqual([
      '2024-05-04',
      '2024-05-05',
      '2024-05-06',
      '2024-05-07',
      '2024-05-08',
      '2024-05-09',
      '2024-05-10',
    ]);
  });

  it('reads a chosen date range as whole UTC days', () => {
    expect(dayRange('2024-05-01', '2024-05-02')).toEqual({
      start: Date.UTC(2024, 4, 1) / 1000,
      end: Date.UTC(2024, 4, 3) / 1000 - 1,
    });
    expect(dayRange('2024-05-03', '2024-05-02')).toBeNull();
    expect(dayRange('', '2024-05-02')).toBeNull();
  });

  it('stacks each model per day, largest first, with empty days as zero', () => {
    const days = ['2024-05-01', '2024-05-02', '2024-05-03'];
    const rows = [row('2024-05-01', 'small', 5), row('2024-05-01', 'big', 50), row('2024-05-03', 'big', 20)];
    const chart = buildUsageChart(rows, days, 'quota');
    expect(chart.series.map((s) => [s.name, s.values, s.total])).toEqual([
      ['big', [50, 0, 20], 70],
      ['small', [5, 0, 0], 5],
    ]);
    expect(chart.dayTotals).toEqual([55, 0, 20]);
    expect(chart.max).toBe(55);
    expect(buildUsageChart(rows, days, 'requests').dayTotals).toEqual([2, 0, 1]);
    expect(buildUsageChart(rows, days, 'tokens').dayTotals).toEqual([60, 0, 30]);
  });

  it('folds the models past the sixth into one "other" series', () => {
    const rows = Array.from({ length: 8 }, (_, i) => row('2024-05-01', `m${i}`, 100 - i));
    const chart = buildUsageChart(rows, ['2024-05-01'], 'quota');
    expect(chart.series).toHaveLength(6);
    expect(chart.series.slice(0, 5).map((s) => s.name)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
    expect(chart.series[5]).toMatchObject({ other: true, total: 95 + 94 + 93 });
    expect(chart.dayTotals[0]).toBe(rows.reduce((total, r) => total + r.Quota, 0));
  });

  it('sums quota, requests and tokens over the range', () => {
    expect(usageTotals([row('2024-05-01', 'a', 5, 2, 10), row('2024-05-02', 'b', 7, 1, 1)])).toEqual({
      quota: 12,
      requests: 3,
      tokens: 33,
      models: 2,
    });
  });

  it('chooses round axis steps', () => {
    expect(niceTicks(0, true)).toEqual([0, 1]);
    expect(niceTicks(3, true)).toEqual([0, 1, 2, 3]);
    expect(niceTicks(95, true)).toEqual([0, 50, 100]);
    expect(niceTicks(0.0009, false)).toEqual([0, 0.0005, 0.001]);
    expect(niceTicks(1234, true)).toEqual([0, 500, 1000, 1500]);
  });
});
