import { describe, expect, it } from 'vitest';
import type { UsageChartData } from './dashboard-series';
import { labelledDays, seriesColor, stackedBars } from './usage-chart-layout';

const data: UsageChartData = {
  days: ['2024-05-01', '2024-05-02', '2024-05-03'],
  series: [
    { name: 'gpt-4o', other: false, values: [5, 0, 2], total: 7 },
    { name: 'gpt-3.5-turbo', other: false, values: [1, 3, 0], total: 4 },
    { name: '', other: true, values: [1, 1, 1], total: 3 },
  ],
  dayTotals: [7, 4, 3],
  max: 7,
};

describe('stackedBars', () => {
  it('draws the day totals first and each smaller running sum over them', () => {
    expect(stackedBars(data)).toEqual([
      { seriesIndex: 2, values: [7, 4, 3] },
      { seriesIndex: 1, values: [6, 3, 2] },
      { seriesIndex: 0, values: [5, 0, 2] },
    ]);
  });

  it('tops out at the day totals the axis is scaled to', () => {
    expect(stackedBars(data)[0]?.values).toEqual(data.dayTotals);
    expect(stackedBars({ ...data, series: [] })).toEqual([]);
  });
});

describe('labelledDays', () => {
  it('labels every day when there is room and thins the labels on a narrow axis', () => {
    expect(labelledDays(7, 1200)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(labelledDays(7, 290)).toEqual([0, 2, 4, 6]);
    expect(labelledDays(90, 290)).toEqual([0, 15, 30, 45, 60, 75]);
  });
});

describe('seriesColor', () => {
  it('gives each model a Mantine colour and the folded rest grey', () => {
    expect(seriesColor(0, false)).toBe('var(--mantine-color-blue-6)');
    expect(seriesColor(6, false)).toBe('var(--mantine-color-blue-6)');
    expect(seriesColor(5, true)).toBe('var(--mantine-color-gray-6)');
  });
});
