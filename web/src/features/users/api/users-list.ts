import { ITEMS_PER_PAGE } from '@switchyard/contract/envelope';
import type { User, userListOrders } from '@switchyard/contract/users';
import { type InfiniteData, type QueryClient, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { fetchData } from '../../../lib/api-client';

export type UserOrder = '' | (typeof userListOrders)[number];

/** A row of the list; `deleted` hides a row right after a successful delete. */
export type UserRow = User & { deleted?: boolean };

export const usersKeys = {
  all: ['users'] as const,
  pages: (order: UserOrder) => ['users', 'pages', order] as const,
  search: (keyword: string) => ['users', 'search', keyword] as const,
  one: (id: number) => ['users', 'one', id] as const,
  self: ['users', 'self'] as const,
  groups: ['groups'] as const,
};

/** GET /api/user/?p=&order=: pages of 10, the next fetched when the last cached one is reached. */
export function useUserPages(order: UserOrder) {
  return useInfiniteQuery({
    queryKey: usersKeys.pages(order),
    initialPageParam: 0,
    queryFn: ({ pageParam }) =>
      fetchData<UserRow[]>('/api/user/', { query: { p: pageParam, order } }).then((rows) => rows ?? []),
    getNextPageParam: (lastPage, pages) => (lastPage.length === ITEMS_PER_PAGE ? pages.length : undefined),
    staleTime: 0,
  });
}

/** GET /api/user/search?keyword=: every match, not paged. */
export function useUserSearch(keyword: string) {
  return useQuery({
    queryKey: usersKeys.search(keyword),
    queryFn: () =>
      fetchData<UserRow[]>('/api/user/search', { query: { keyword } }).then((rows) => rows ?? []),
    enabled: keyword !== '',
    staleTime: 0,
  });
}

/** Apply a change to a user row wherever the lists cache it. */
export function patchCachedUser(queryClient: QueryClient, username: string, patch: Partial<UserRow>): void {
  const update = (row: UserRow) => (row.username === username ? { ...row, ...patch } : row);
  queryClient.setQueriesData<InfiniteData<UserRow[]>>({ queryKey: ['users', 'pages'] }, (data) =>
    data ? { ...data, pages: data.pages.map((page) => page.map(update)) } : data,
  );
  queryClient.setQueriesData<UserRow[]>({ queryKey: ['users', 'search'] }, (rows) => rows?.map(update));
}
