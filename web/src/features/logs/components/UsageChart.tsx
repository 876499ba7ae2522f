import { Box, Group, Paper, Stack, Text, useComputedColorScheme } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { niceTicks, type UsageChartData, type UsageMetric } from './dashboard-series';
import { CHART_HEIGHT, labelledDays, seriesColor, seriesColorVar, stackedBars } from './usage-chart-layout';
import { formatAxis, formatUsage } from './usage-format';

const FONT_SIZE = 11;

/** A Mantine CSS variable's value: the canvas cannot read `var(...)`. */
const cssVar = (element: Element, name: string): string =>
  getComputedStyle(element).getPropertyValue(name).trim();

function chartOptions(
  host: HTMLElement,
  data: UsageChartData,
  metric: UsageMetric,
  width: number,
  onHover: (index: number | null) => void,
): uPlot.Options {
  const ticks = niceTicks(data.max, metric !== 'quota');
  const step = ticks[1] ?? 1;
  const font = `${FONT_SIZE}px ${cssVar(host, '--mantine-font-family') || 'sans-serif'}`;
  const dimmed = cssVar(host, '--mantine-color-dimmed');
  const border = cssVar(host, '--mantine-color-default-border');
  const bars = uPlot.paths.bars?.({ size: [0.66, 36, 2], align: 0 });
  const labels = ticks.map((tick) => formatAxis(metric, tick, step));
  return {
    width,
    height: CHART_HEIGHT,
    padding: [12, 8, 0, 0],
    legend: { show: false },
    select: { show: false, left: 0, top: 0, width: 0, height: 0 },
    cursor: { x: false, y: false, points: { show: false }, drag: { x: false, y: false, setScale: false } },
    scales: {
      x: { time: false, range: [-0.5, data.days.length - 0.5] },
      y: { range: [0, ticks.at(-1) || 1] },
    },
    axes: [
      {
        font,
        stroke: dimmed,
        size: 26,
        gap: 4,
        grid: { show: false },
        ticks: { show: false },
        splits: (u) => labelledDays(data.days.length, u.bbox.width / uPlot.pxRatio),
        values: (_u, splits) => splits.map((i) => data.days[i]?.slice(5) ?? ''),
      },
      {
        font,
        stroke: dimmed,
        gap: 6,
        // Wide enough for the longest label, measured in the axis font.
        size: (u) => {
          u.ctx.save();
          u.ctx.font = font;
          const widest = Math.max(...labels.map((label) => u.ctx.measureText(label).width));
          u.ctx.restore();
          return Math.ceil(widest) + 14;
        },
        grid: { stroke: border, width: 1, dash: [3, 3] },
        ticks: { show: false },
        splits: () => ticks,
        values: () => labels,
      },
    ],
    series: [
      {},
      ...stackedBars(data).map(({ seriesIndex }) => {
        const series = data.series[seriesIndex];
        const color = cssVar(host, seriesColorVar(seriesIndex, series?.other ?? false));
        return {
          label: series?.name,
          fill: color,
          stroke: color,
          width: 0,
          paths: bars,
          points: { show: false },
        };
      }),
    ],
    hooks: { setCursor: [(u) => onHover(u.cursor.idx ?? null)] },
  };
}

/** Stacked bars per day, one colour per model (drawn by uPlot); hovering (or tapping) a day shows its numbers. */
export function UsageChart({ data, metric }: { data: UsageChartData; metric: UsageMetric }) {
  const { t } = useTranslation();
  const scheme = useComputedColorScheme('light');
  const { ref, width } = useElementSize();
  const host = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const [active, setActive] = useState<number | null>(null);
  const hasWidth = width > 0;
  const seriesName = (name: string, other: boolean) => (other ? t('dashboard.otherModels') : name);

  // A new chart when the data, the metric or the colour scheme changes; resizing keeps it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the width is read once here and followed below
  useEffect(() => {
    if (!host.current || !hasWidth) return;
    const options = chartOptions(host.current, data, metric, width, setActive);
    const aligned: uPlot.AlignedData = [
      data.days.map((_, i) => i),
      ...stackedBars(data).map((s) => s.values),
    ];
    plot.current = new uPlot(options, aligned, host.current);
    return () => {
      plot.current?.destroy();
      plot.current = null;
      setActive(null);
    };
  }, [data, metric, scheme, hasWidth]);

  useEffect(() => {
    if (width > 0) plot.current?.setSize({ width, height: CHART_HEIGHT });
  }, [width]);

  // The hovered day's slot in CSS pixels from the chart's left edge.
  const u = plot.current;
  const slot =
    u && active !== null
      ? {
          left: u.bbox.left / uPlot.pxRatio + u.valToPos(active - 0.5, 'x'),
          right: u.bbox.left / uPlot.pxRatio + u.valToPos(active + 0.5, 'x'),
          top: u.bbox.top / uPlot.pxRatio,
          height: u.bbox.height / uPlot.pxRatio,
        }
      : null;

  return (
    <Box
      ref={ref}
      pos="relative"
      h={CHART_HEIGHT}
      data-testid="usage-chart"
      data-days={data.days.length}
      data-series={data.series.length}
      role="img"
      aria-label={t('dashboard.chartLabel', { metric: t(`dashboard.metrics.${metric}`) })}
      onMouseLeave={() => setActive(null)}
    >
      {slot && (
        <Box
          pos="absolute"
          top={slot.top}
          left={slot.left}
          w={slot.right - slot.left}
          h={slot.height}
          bg="var(--mantine-color-default-hover)"
          style={{ borderRadius: 4, pointerEvents: 'none' }}
        />
      )}
      <div ref={host} style={{ position: 'relative', zIndex: 1 }} />
      {slot && active !== null && data.days[active] && (
        <Paper
          withBorder
          shadow="sm"
          p="xs"
          pos="absolute"
          top={0}
          style={{
            pointerEvents: 'none',
            zIndex: 2,
            ...(slot.left > width / 2 ? { right: Math.max(0, width - slot.left) } : { left: slot.right }),
          }}
          data-testid="usage-chart-tooltip"
        >
          <Text size="xs" fw={700}>
            {data.days[active]} · {formatUsage(metric, data.dayTotals[active] ?? 0)}
          </Text>
          <Stack gap={2} mt={4}>
            {data.series.map((series, s) =>
              (series.values[active] ?? 0) > 0 ? (
                <Group key={series.name || 'other'} gap={6} wrap="nowrap">
                  <Box w={8} h={8} style={{ borderRadius: 2, background: seriesColor(s, series.other) }} />
                  <Text size="xs">
                    {seriesName(series.name, series.other)}: {formatUsage(metric, series.values[active] ?? 0)}
                  </Text>
                </Group>
              ) : null,
            )}
          </Stack>
        </Paper>
      )}
    </Box>
  );
}
