import type { InfiniteData, UseInfiniteQueryResult, UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import { needsFetch, pageCount, pageSlice } from './paging';

/** A list row; `deleted` hides a row right after a successful delete. */
export interface ListRow {
  deleted?: boolean;
}

export interface ListPaging<T> {
  /** The rows of the current page, deleted ones hidden. */
  visible: T[];
  loading: boolean;
  page: number;
  total: number;
  goTo: (page: number) => Promise<void>;
  /** Back to the first page (after a new search or order). */
  reset: () => void;
  /** Back to the first page and fetch the shown list (pages or search results) again. */
  refresh: () => void;
  refreshing: boolean;
}

type ServerPages<T> = UseInfiniteQueryResult<InfiniteData<T[]>>;

/** Whether page `next` has rows to show: the next server page is fetched first when `next` needs it. */
async function canShow<T>(pages: ServerPages<T>, cachedRows: number, next: number): Promise<boolean> {
  if (!needsFetch(cachedRows, next) || !pages.hasNextPage) return true;
  const result = await pages.fetchNextPage();
  return (result.data?.pages.at(-1) ?? []).length > 0;
}

/** Paging over server pages alone (a filtered list without keyword search): the shown page's rows. */
export function usePagedRows<T>(pages: ServerPages<T>) {
  const [page, setPage] = useState(1);
  const rows = pages.data?.pages.flat() ?? [];
  return {
    visible: pageSlice(rows, page),
    page,
    total: pageCount(rows.length, pages.hasNextPage),
    goTo: async (next: number) => {
      if (await canShow(pages, rows.length, next)) setPage(next);
    },
    /** Back to the first page (after new filters). */
    reset: () => setPage(1),
  };
}

/**
 * One list screen's paging: server pages cached by an infinite query, or the results of a
 * keyword search when one is given. Choosing the page after the last cached one fetches it.
 */
export function useListPaging<T extends ListRow>(
  pages: ServerPages<T>,
  search: UseQueryResult<T[]>,
  searching: boolean,
): ListPaging<T> {
  const [page, setPage] = useState(1);
  const rows: T[] = searching ? (search.data ?? []) : (pages.data?.pages.flat() ?? []);

  const goTo = async (next: number) => {
    if (searching || (await canShow(pages, rows.length, next))) setPage(next);
  };

  return {
    visible: pageSlice(rows, page).filter((row) => !row.deleted),
    loading: searching ? search.isLoading : pages.isLoading,
    page,
    total: pageCount(rows.length, !searching && pages.hasNextPage),
    goTo,
    reset: () => setPage(1),
    refresh: () => {
      setPage(1);
      void (searching ? search.refetch() : pages.refetch());
    },
    refreshing: pages.isRefetching || search.isRefetching,
  };
}
