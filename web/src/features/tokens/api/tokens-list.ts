import { ITEMS_PER_PAGE } from '@switchyard/contract/envelope';
import type { Token, tokenListOrders } from '@switchyard/contract/tokens';
import { type InfiniteData, type QueryClient, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { fetchData } from '../../../lib/api-client';

export type TokenOrder = '' | (typeof tokenListOrders)[number];

/** A row of the list; `deleted` hides a row right after a successful delete. */
export type TokenRow = Token & { deleted?: boolean };

export const tokensKeys = {
  all: ['tokens'] as const,
  pages: (order: TokenOrder) => ['tokens', 'pages', order] as const,
  search: (keyword: string) => ['tokens', 'search', keyword] as const,
  one: (id: number) => ['tokens', 'one', id] as const,
  availableModels: ['tokens', 'available-models'] as const,
};

/** GET /api/token/?p=&order=: the caller's tokens in pages of 10, the next fetched on demand. */
export function useTokenPages(order: TokenOrder) {
  return useInfiniteQuery({
    queryKey: tokensKeys.pages(order),
    initialPageParam: 0,
    queryFn: ({ pageParam }) =>
      fetchData<TokenRow[]>('/api/token/', { query: { p: pageParam, order } }).then((rows) => rows ?? []),
    getNextPageParam: (lastPage, pages) => (lastPage.length === ITEMS_PER_PAGE ? pages.length : undefined),
    staleTime: 0,
  });
}

/** GET /api/token/search?keyword=: every match, not paged. */
export function useTokenSearch(keyword: string) {
  return useQuery({
    queryKey: tokensKeys.search(keyword),
    queryFn: () =>
      fetchData<TokenRow[]>('/api/token/search', { query: { keyword } }).then((rows) => rows ?? []),
    enabled: keyword !== '',
    staleTime: 0,
  });
}

/** Apply a change to a token row wherever the lists cache it. */
export function patchCachedToken(queryClient: QueryClient, id: number, patch: Partial<TokenRow>): void {
  const update = (row: TokenRow) => (row.id === id ? { ...row, ...patch } : row);
  queryClient.setQueriesData<InfiniteData<TokenRow[]>>({ queryKey: ['tokens', 'pages'] }, (data) =>
    data ? { ...data, pages: data.pages.map((page) => page.map(update)) } : data,
  );
  queryClient.setQueriesData<TokenRow[]>({ queryKey: ['tokens', 'search'] }, (rows) => rows?.map(update));
}
