import type { Channel, CreateChannelInput, UpdateChannelInput } from '@switchyard/contract/channels';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, fetchData } from '../../../lib/api-client';
import { channelsKeys } from './channels-list';

/** GET /api/channel/{id}: the channel being edited (its key is '' unless the caller is root). */
export function useChannel(id: number) {
  return useQuery({
    queryKey: channelsKeys.one(id),
    queryFn: () => fetchData<Channel>(`/api/channel/${id}`),
    staleTime: 0,
  });
}

/** GET /api/group/: the groups a channel may serve (the keys of the group ratios). */
export function useChannelGroups() {
  return useQuery({
    queryKey: channelsKeys.groups,
    queryFn: () => fetchData<string[]>('/api/group/').then((groups) => groups ?? []),
  });
}

export type ChannelChange =
  | { id: null; input: CreateChannelInput }
  | { id: number; input: UpdateChannelInput };

/**
 * POST /api/channel/ (one channel per key line) or PUT /api/channel/ (the whole form); resolves
 * with how many channels were saved. The lists reload afterwards.
 */
export function useSaveChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (change: ChannelChange): Promise<number> => {
      if (change.id !== null) {
        await api.put<Channel>('/api/channel/', change.input);
        return 1;
      }
      const { data } = await api.post<{ ids: number[] }>('/api/channel/', change.input);
      return data?.ids.length ?? 1;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: channelsKeys.all }),
  });
}
