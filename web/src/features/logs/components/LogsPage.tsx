import { Group, Paper, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { LogType } from '@switchyard/contract/roles';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyPanel } from '../../../components/EmptyPanel';
import { ListPagination } from '../../../components/ListPagination';
import { PageHeader } from '../../../components/PageHeader';
import { PageLoading } from '../../../components/PageLoading';
import { renderLogQuota } from '../../../lib/format';
import { isAdmin, useSessionUser } from '../../../lib/session';
import { usePagedRows } from '../../../lib/use-list-paging';
import { type LogQuery, useLogPages, useLogStat } from '../api/logs-list';
import { LogCards } from './LogCards';
import { LogFilters } from './LogFilters';
import { LogsTable } from './LogsTable';
import { defaultLogFilter, type LogFilterError, toLogQuery } from './log-filter-form';
import { UsageDashboard } from './UsageDashboard';

function initialQuery(admin: boolean): LogQuery {
  const result = toLogQuery(defaultLogFilter(), admin);
  return 'query' in result ? result.query : {};
}

/** Usage logs: the dashboard of daily use, then the filtered log list with its quota total. */
export function LogsPage() {
  const { t } = useTranslation();
  const admin = isAdmin(useSessionUser());
  const phone = useMediaQuery('(max-width: 36em)');
  const [form, setForm] = useState(defaultLogFilter);
  const [query, setQuery] = useState(() => initialQuery(admin));
  const [error, setError] = useState<LogFilterError | null>(null);
  const pages = useLogPages(admin, query);
  const stat = useLogStat(admin, query);
  const { visible, page, total, goTo, reset } = usePagedRows(pages);

  const apply = (next = form) => {
    const result = toLogQuery(next, admin);
    if ('error' in result) {
      setError(result.error);
      return;
    }
    setError(null);
    reset();
    setQuery(result.query);
    // The same filters again means "refresh".
    if (JSON.stringify(result.query) === JSON.stringify(query)) {
      void pages.refetch();
      void stat.refetch();
    }
  };

  return (
    <>
      <PageHeader title={t('logs.title')} />
      <UsageDashboard admin={admin} />
      <Paper withBorder p={{ base: 'sm', sm: 'md' }} mt="md">
        <Group justify="space-between" align="baseline" mb="sm" gap="xs">
          <Title order={3} fz="h4">
            {t('logs.details')}
          </Title>
          <Text size="sm" data-testid="logs-stat">
            {/* The server sums consumption when no type is chosen, else the chosen type. */}
            {Number(query.type ?? 0) === 0 || Number(query.type) === LogType.consume
              ? t('logs.statConsumed')
              : t('logs.statTotal')}{' '}
            <Text span fw={700} ff="monospace">
              {stat.data === undefined ? '…' : renderLogQuota(stat.data)}
            </Text>
          </Text>
        </Group>
        <LogFilters
          form={form}
          admin={admin}
          error={error}
          onChange={setForm}
          onType={(type) => {
            const next = { ...form, type };
            setForm(next);
            apply(next);
          }}
          onSearch={() => apply()}
          onReset={() => {
            const next = defaultLogFilter();
            setForm(next);
            apply(next);
          }}
          searching={pages.isFetching && !pages.isFetchingNextPage}
        />
        <div style={{ marginTop: 'var(--mantine-spacing-md)' }}>
          {pages.isLoading ? (
            <PageLoading page={t('pageNames.log')} />
          ) : visible.length === 0 ? (
            <EmptyPanel title={t('logs.empty')} text={t('logs.emptyText')} />
          ) : phone ? (
            <LogCards logs={visible} admin={admin} />
          ) : (
            <LogsTable logs={visible} admin={admin} />
          )}
        </div>
        <ListPagination total={total} value={page} onChange={(next) => void goTo(next)} />
      </Paper>
    </>
  );
}
