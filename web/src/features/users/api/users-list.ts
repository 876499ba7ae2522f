import type { User, userListOrders } from '@switchyard/contract/users';
import type { QueryClient } from '@tanstack/react-query';
import { patchCachedRows, useServerPages, useServerSearch } from '../../../lib/list-queries';

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
  return useServerPages<UserRow>(usersKeys.pages(order), '/api/user/', { order });
}

/** GET /api/user/search?keyword=: every match, not paged. */
export function useUserSearch(keyword: string) {
  return useServerSearch<UserRow>(usersKeys.search(keyword), '/api/user/search', keyword);
}

/** Apply a change to a user row wherever the lists cache it. */
export function patchCachedUser(queryClient: QueryClient, username: string, patch: Partial<UserRow>): void {
  patchCachedRows<UserRow>(queryClient, 'users', (row) => row.username === username, patch);
}
