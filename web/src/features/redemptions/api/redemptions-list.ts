import { ITEMS_PER_PAGE } from '@switchyard/contract/envelope';
import type { Redemption } from '@switchyard/contract/redemptions';
import { type InfiniteData, type QueryClient, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { fetchData } from '../../../lib/api-client';

/** A row of the list; `deleted` hides a row right after a successful delete. */
export type RedemptionRow = Redemption & { deleted?: boolean };

export const redemptionsKeys = {
  all: ['redemptions'] as const,
  pages: ['redemptions', 'pages'] as const,
  search: (keyword: string) => ['redemptions', 'search', keyword] as const,
  one: (id: number) => ['redemptions', 'one', id] as const,
};

/** GET /api/redemption/?p=: pages of 10, newest first, the next fetched on demand. */
export function useRedemptionPages() {
  return useInfiniteQuery({
    queryKey: redemptionsKeys.pages,
    initialPageParam: 0,
    queryFn: ({ pageParam }) =>
      fetchData<RedemptionRow[]>('/api/redemption/', { query: { p: pageParam } }).then((rows) => rows ?? []),
    getNextPageParam: (lastPage, pages) => (lastPage.length === ITEMS_PER_PAGE ? pages.length : undefined),
    staleTime: 0,
  });
}

/** GET /api/redemption/search?keyword=: by id or name, not paged. */
export function useRedemptionSearch(keyword: string) {
  return useQuery({
    queryKey: redemptionsKeys.search(keyword),
    queryFn: () =>
      fetchData<RedemptionRow[]>('/api/redemption/search', { query: { keyword } }).then((rows) => rows ?? []),
    enabled: keyword !== '',
    staleTime: 0,
  });
}

/** Apply a change to a redemption row wherever the lists cache it. */
export function patchCachedRedemption(
  queryClient: QueryClient,
  id: number,
  patch: Partial<RedemptionRow>,
): void {
  const update = (row: RedemptionRow) => (row.id === id ? { ...row, ...patch } : row);
  queryClient.setQueriesData<InfiniteData<RedemptionRow[]>>({ queryKey: redemptionsKeys.pages }, (data) =>
    data ? { ...data, pages: data.pages.map((page) => page.map(update)) } : data,
  );
  queryClient.setQueriesData<RedemptionRow[]>({ queryKey: ['redemptions', 'search'] }, (rows) =>
    rows?.map(update),
  );
}
