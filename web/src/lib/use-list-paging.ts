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

/**
 * One list screen's paging: server pages cached by an infinite query, or the results of a
 * keyword search when one is given. Choosing the page after the last cached one fetches it.
 */
export function useListPaging<T extends ListRow>(
  pages: UseInfiniteQueryResult<InfiniteData<T[]>>,
  search: UseQueryResult<T[]>,
  searching: boolean,
): ListPaging<T> {
  const [page, setPage] = useState(1);
  const rows: T[] = searching ? (search.data ?? []) : (pages.data?.pages.flat() ?? []);

  const goTo = async (next: number) => {
    if (!searching && needsFetch(rows.length, next) && pages.hasNextPage) {
      const result = await pages.fetchNextPage();
      const fetched = result.data?.pages.at(-1) ?? [];
      if (fetched.length === 0) return;
    }
    setPage(next);
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
