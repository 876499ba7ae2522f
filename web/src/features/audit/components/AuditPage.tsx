import { Paper, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyPanel } from '../../../components/EmptyPanel';
import { ListPagination } from '../../../components/ListPagination';
import { PageHeader } from '../../../components/PageHeader';
import { PageLoading } from '../../../components/PageLoading';
import { needsFetch, pageCount, pageSlice } from '../../../lib/paging';
import { isRoot, useSessionUser } from '../../../lib/session';
import { type AuditQuery, useAuditPages } from '../api/audit-list';
import { AuditCards } from './AuditCards';
import { AuditFilters } from './AuditFilters';
import { AuditTable } from './AuditTable';
import { type AuditFilterError, emptyAuditFilter, toAuditQuery } from './audit-filter-form';

/** The audit log, read only: who changed what through the console, and every sign-in. */
export function AuditPage() {
  const { t } = useTranslation();
  const root = isRoot(useSessionUser());
  const phone = useMediaQuery('(max-width: 36em)');
  const [form, setForm] = useState(emptyAuditFilter);
  const [query, setQuery] = useState<AuditQuery>({});
  const [error, setError] = useState<AuditFilterError | null>(null);
  const [page, setPage] = useState(1);
  const pages = useAuditPages(query);

  const rows = pages.data?.pages.flat() ?? [];
  const visible = pageSlice(rows, page);

  const apply = (next = form) => {
    const result = toAuditQuery(next);
    if ('error' in result) {
      setError(result.error);
      return;
    }
    setError(null);
    setPage(1);
    setQuery(result.query);
    if (JSON.stringify(result.query) === JSON.stringify(query)) void pages.refetch();
  };

  const goTo = async (next: number) => {
    if (needsFetch(rows.length, next) && pages.hasNextPage) {
      const result = await pages.fetchNextPage();
      if ((result.data?.pages.at(-1) ?? []).length === 0) return;
    }
    setPage(next);
  };

  return (
    <>
      <PageHeader title={t('audit.title')} />
      <Paper withBorder p={{ base: 'sm', sm: 'md' }}>
        <Text size="sm" c="dimmed" mb="sm">
          {t(root ? 'audit.introRoot' : 'audit.introAdmin')}
        </Text>
        <AuditFilters
          form={form}
          error={error}
          onChange={setForm}
          onSearch={() => apply()}
          onReset={() => {
            const next = emptyAuditFilter();
            setForm(next);
            apply(next);
          }}
          searching={pages.isFetching && !pages.isFetchingNextPage}
        />
        <div style={{ marginTop: 'var(--mantine-spacing-md)' }}>
          {pages.isLoading ? (
            <PageLoading page={t('pageNames.audit')} />
          ) : visible.length === 0 ? (
            <EmptyPanel title={t('audit.empty')} text={t('audit.emptyText')} />
          ) : phone ? (
            <AuditCards entries={visible} />
          ) : (
            <AuditTable entries={visible} />
          )}
        </div>
        <ListPagination
          total={pageCount(rows.length, pages.hasNextPage)}
          value={page}
          onChange={(next) => void goTo(next)}
        />
      </Paper>
    </>
  );
}
