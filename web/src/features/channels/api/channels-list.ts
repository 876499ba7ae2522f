import type { Channel } from '@switchyard/contract/channels';
import { ITEMS_PER_PAGE } from '@switchyard/contract/envelope';
import { type InfiniteData, type QueryClient, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { fetchData } from '../../../lib/api-client';

/** A row of the list; `deleted` hides a row right after a successful delete. */
export type ChannelRow = Channel & { deleted?: boolean };

export const channelsKeys = {
  all: ['channels'] as const,
  pages: ['channels', 'pages'] as const,
  search: (keyword: string) => ['channels', 'search', keyword] as const,
  one: (id: number) => ['channels', 'one', id] as const,
  typeModels: ['channel-type-models'] as const,
  allModels: ['channel-all-models'] as const,
  groups: ['groups'] as const,
};

/** GET /api/channel/?p=: pages of 10, newest first, the next fetched when the last cached one is reached. */
export function useChannelPages() {
  return useInfiniteQuery({
    queryKey: channelsKeys.pages,
    initialPageParam: 0,
    queryFn: ({ pageParam }) =>
      fetchData<ChannelRow[]>('/api/channel/', { query: { p: pageParam } }).then((rows) => rows ?? []),
    getNextPageParam: (lastPage, pages) => (lastPage.length === ITEMS_PER_PAGE ? pages.length : undefined),
    staleTime: 0,
  });
}

/** GET /api/channel/search?keyword=: channels whose id is the keyword or whose name starts with it. */
export function useChannelSearch(keyword: string) {
  return useQuery({
    queryKey: channelsKeys.search(keyword),
    queryFn: () =>
      fetchData<ChannelRow[]>('/api/channel/search', { query: { keyword } }).then((rows) => rows ?? []),
    enabled: keyword !== '',
    staleTime: 0,
  });
}

/** Apply a change to a channel row wherever the lists cache it. */
export function patchCachedChannel(queryClient: QueryClient, id: number, patch: Partial<ChannelRow>): void {
  const update = (row: ChannelRow) => (row.id === id ? { ...row, ...patch } : row);
  queryClient.setQueriesData<InfiniteData<ChannelRow[]>>({ queryKey: channelsKeys.pages }, (data) =>
    data ? { ...data, pages: data.pages.map((page) => page.map(update)) } : data,
  );
  queryClient.setQueriesData<ChannelRow[]>({ queryKey: ['channels', 'search'] }, (rows) => rows?.map(update));
}
