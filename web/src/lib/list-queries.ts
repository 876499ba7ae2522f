import { ITEMS_PER_PAGE } from '@switchyard/contract/envelope';
import {
  type InfiniteData,
  type QueryClient,
  type QueryKey,
  useInfiniteQuery,
  useQuery,
} from '@tanstack/react-query';
import { fetchData, type Query } from './api-client';

/** GET `path?p=…`: pages of 10, the next fetched when the last cached one is reached. */
export function useServerPages<T>(queryKey: QueryKey, path: string, query: Query = {}) {
  return useInfiniteQuery({
    queryKey,
    initialPageParam: 0,
    queryFn: ({ pageParam }) =>
      fetchData<T[]>(path, { query: { p: pageParam, ...query } }).then((rows) => rows ?? []),
    getNextPageParam: (lastPage, pages) => (lastPage.length === ITEMS_PER_PAGE ? pages.length : undefined),
    staleTime: 0,
  });
}

/** GET `path?keyword=…`: every match, not paged; idle while the keyword is empty. */
export function useServerSearch<T>(queryKey: QueryKey, path: string, keyword: string) {
  return useQuery({
    queryKey,
    queryFn: () => fetchData<T[]>(path, { query: { keyword } }).then((rows) => rows ?? []),
    enabled: keyword !== '',
    staleTime: 0,
  });
}

/**
 * Apply a change to the rows `matches` picks wherever a list caches them: the pages under
 * `[section, 'pages']` and the searches under `[section, 'search']`.
 */
export function patchCachedRows<T>(
  queryClient: QueryClient,
  section: string,
  matches: (row: T) => boolean,
  patch: Partial<T>,
): void {
  const update = (row: T) => (matches(row) ? { ...row, ...patch } : row);
  queryClient.setQueriesData<InfiniteData<T[]>>({ queryKey: [section, 'pages'] }, (data) =>
    data ? { ...data, pages: data.pages.map((page) => page.map(update)) } : data,
  );
  queryClient.setQueriesData<T[]>({ queryKey: [section, 'search'] }, (rows) => rows?.map(update));
}
