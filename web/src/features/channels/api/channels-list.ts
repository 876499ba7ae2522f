import type { Channel, channelListOrders } from '@switchyard/contract/channels';
import type { QueryClient } from '@tanstack/react-query';
import { patchCachedRows, useServerPages, useServerSearch } from '../../../lib/list-queries';

/** A row of the list; `deleted` hides a row right after a successful delete. */
export type ChannelRow = Channel & { deleted?: boolean };

export type ChannelOrder = '' | (typeof channelListOrders)[number];

export const channelsKeys = {
  all: ['channels'] as const,
  pages: (order: ChannelOrder) => ['channels', 'pages', order] as const,
  search: (keyword: string) => ['channels', 'search', keyword] as const,
  one: (id: number) => ['channels', 'one', id] as const,
  typeModels: ['channel-type-models'] as const,
  allModels: ['channel-all-models'] as const,
  groups: ['groups'] as const,
};

/** GET /api/channel/?p=&order=: pages of 10 (newest first by default), the next fetched when the last cached one is reached. */
export function useChannelPages(order: ChannelOrder) {
  return useServerPages<ChannelRow>(channelsKeys.pages(order), '/api/channel/', { order });
}

/** GET /api/channel/search?keyword=: channels whose id is the keyword or whose name starts with it. */
export function useChannelSearch(keyword: string) {
  return useServerSearch<ChannelRow>(channelsKeys.search(keyword), '/api/channel/search', keyword);
}

/** Apply a change to a channel row wherever the lists cache it. */
export function patchCachedChannel(queryClient: QueryClient, id: number, patch: Partial<ChannelRow>): void {
  patchCachedRows<ChannelRow>(queryClient, 'channels', (row) => row.id === id, patch);
}
