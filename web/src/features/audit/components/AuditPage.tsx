import { Paper, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyPanel } from '../../../components/EmptyPanel';
import { ListPagination } from '../../../components/ListPagination';
import { PageHeader } from '../../../components/PageHeader';
import { PageLoading } from '../../../components/PageLoading';
import { isRoot, useSessionUser } from '../../../lib/session';
import { usePagedRows } from '../../../lib/use-list-paging';
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
  const pages = useAuditPages(query);
  const { visible, page, total, goTo, reset } = usePagedRows(pages);

  const apply = (next = form) => {
    const result = toAuditQuery(next);
    if ('error' in result) {
      setError(result.error);
      return;
    }
    setError(null);
    reset();
    setQuery(result.query);
    if (JSON.stringify(result.query) === JSON.stringify(query)) void pages.refetch();
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
        <ListPagination total={total} value={page} onChange={(next) => void goTo(next)} />
      </Paper>
    </>
  );
}
