import { Box, Group, Paper, SegmentedControl, SimpleGrid, Skeleton, Text, Title } from '@mantine/core';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyPanel } from '../../../components/EmptyPanel';
import { PageLoading } from '../../../components/PageLoading';
import { type DashboardScope, useDashboard } from '../api/dashboard';
import { type DashboardRange, DEFAULT_DAYS, RangeControl, ScopeControl } from './DashboardControls';
import {
  buildUsageChart,
  lastDays,
  USAGE_METRICS,
  type UsageMetric,
  usageTotals,
  utcDays,
} from './dashboard-series';
import { CHART_HEIGHT, seriesColor } from './usage-chart-layout';
import { formatUsage } from './usage-format';

// The charting library is loaded with the chart, in a chunk of its own, so the log page stays small.
const loadChart = () => import('./UsageChart');
const UsageChart = lazy(async () => ({ default: (await loadChart()).UsageChart }));

function Stat({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Paper withBorder p="sm" radius="md">
      <Text size="xs" c="dimmed" fw={600}>
        {label}
      </Text>
      <Text fw={700} fz="lg" ff="monospace" data-testid={testId} style={{ wordBreak: 'break-all' }}>
        {value}
      </Text>
    </Paper>
  );
}

/** Quota, requests and tokens per day, split by model, over a chosen range (default the last 7 days). */
export function UsageDashboard({ admin }: { admin: boolean }) {
  const { t } = useTranslation();
  const [range, setRange] = useState<DashboardRange>(() => lastDays(DEFAULT_DAYS));
  // An administrator's own use is rarely the interesting one: they start with everyone's.
  const [scope, setScope] = useState<DashboardScope>({ kind: admin ? 'all' : 'self' });
  const [metric, setMetric] = useState<UsageMetric>('quota');
  const dashboard = useDashboard({ ...range, scope });
  // Fetch the chart's chunk while the numbers are on their way.
  useEffect(() => void loadChart(), []);
  const rows = dashboard.data ?? [];
  const totals = usageTotals(rows);
  const chart = useMemo(
    () => buildUsageChart(dashboard.data ?? [], utcDays(range.start, range.end), metric),
    [dashboard.data, range, metric],
  );

  return (
    <Paper withBorder p={{ base: 'sm', sm: 'md' }} data-testid="usage-dashboard">
      <Group justify="space-between" align="flex-start" gap="sm" mb="sm">
        <Box>
          <Title order={3} fz="h4">
            {t('dashboard.title')}
          </Title>
          <Text size="xs" c="dimmed">
            {t('dashboard.subtitle')}
          </Text>
        </Box>
        <Group gap="xs" wrap="wrap">
          {admin && <ScopeControl initial="all" onChange={setScope} />}
          <RangeControl onChange={setRange} />
        </Group>
      </Group>
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" mb="md">
        <Stat
          label={t('dashboard.metrics.quota')}
          value={formatUsage('quota', totals.quota)}
          testId="usage-quota"
        />
        <Stat
          label={t('dashboard.metrics.requests')}
          value={formatUsage('requests', totals.requests)}
          testId="usage-requests"
        />
        <Stat
          label={t('dashboard.metrics.tokens')}
          value={formatUsage('tokens', totals.tokens)}
          testId="usage-tokens"
        />
        <Stat label={t('dashboard.models')} value={String(totals.models)} testId="usage-models" />
      </SimpleGrid>
      <SegmentedControl
        size="xs"
        mb="xs"
        aria-label={t('dashboard.metricLabel')}
        value={metric}
        onChange={(value) => setMetric(value as UsageMetric)}
        data={USAGE_METRICS.map((value) => ({ value, label: t(`dashboard.metrics.${value}`) }))}
      />
      {dashboard.isLoading ? (
        <PageLoading page={t('dashboard.loading')} />
      ) : chart.series.length === 0 ? (
        <EmptyPanel title={t('dashboard.empty')} text={t('dashboard.emptyText')} />
      ) : (
        <>
          <Suspense fallback={<Skeleton h={CHART_HEIGHT} data-testid="usage-chart-loading" />}>
            <UsageChart data={chart} metric={metric} />
          </Suspense>
          <Group gap="md" mt="xs" data-testid="usage-legend">
            {chart.series.map((series, index) => (
              <Group key={series.name || 'other'} gap={6} wrap="nowrap">
                <Box
                  w={10}
                  h={10}
                  style={{ borderRadius: 2, background: seriesColor(index, series.other) }}
                />
                <Text size="xs">
                  {series.other ? t('dashboard.otherModels') : series.name}{' '}
                  <Text span c="dimmed" size="xs">
                    {formatUsage(metric, series.total)}
                  </Text>
                </Text>
              </Group>
            ))}
          </Group>
        </>
      )}
    </Paper>
  );
}
