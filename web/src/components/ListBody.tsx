import { Button } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ListPaging } from '../lib/use-list-paging';
import { EmptyPanel } from './EmptyPanel';
import { ListPagination } from './ListPagination';
import { PageLoading } from './PageLoading';

/**
 * The rows of a list screen with their pagination: a loading placeholder, the empty state,
 * cards on a phone or a table on wider screens.
 */
export function ListBody<T>({
  list,
  loadingPage,
  empty,
  cards,
  table,
}: {
  list: ListPaging<T>;
  /** The page name in 'Loading {page}...'. */
  loadingPage: string;
  empty: ReactNode;
  cards: (rows: T[]) => ReactNode;
  table: (rows: T[]) => ReactNode;
}) {
  const phone = useMediaQuery('(max-width: 36em)');
  return (
    <>
      {list.loading ? (
        <PageLoading page={loadingPage} />
      ) : list.visible.length === 0 ? (
        empty
      ) : phone ? (
        cards(list.visible)
      ) : (
        table(list.visible)
      )}
      <ListPagination total={list.total} value={list.page} onChange={(next) => void list.goTo(next)} />
    </>
  );
}

/**
 * The empty state of a list whose texts live under `{section}.empty|emptyText|noMatch|noMatchText`:
 * after a search it says nothing matched; otherwise it offers to add the first item.
 */
export function ListEmpty({
  section,
  searching,
  addTo,
}: {
  section: string;
  searching: boolean;
  addTo: string;
}) {
  const { t } = useTranslation();
  return (
    <EmptyPanel
      title={t(searching ? `${section}.noMatch` : `${section}.empty`)}
      text={t(searching ? `${section}.noMatchText` : `${section}.emptyText`)}
    >
      {!searching && (
        <Button component={Link} to={addTo} variant="light">
          {t(`${section}.add`)}
        </Button>
      )}
    </EmptyPanel>
  );
}
