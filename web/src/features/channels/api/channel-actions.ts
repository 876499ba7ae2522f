import type { Channel } from '@switchyard/contract/channels';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../../lib/api-client';
import { useDeleteRow } from '../../../lib/row-mutations';
import { showInfo, showSuccess } from '../../../lib/toast';
import { type ChannelRow, channelsKeys, patchCachedChannel } from './channels-list';

/** What the list changes in place: the status buttons and the inline priority and weight. */
export type ChannelFieldChange = { id: number } & (
  | { status: 1 | 2 }
  | { priority: number }
  | { weight: number }
);

/** PUT /api/channel/ with the id and one field; the answer (the saved channel) updates the row. */
export function useUpdateChannelField() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (change: ChannelFieldChange) => (await api.put<Channel>('/api/channel/', change)).data,
    onSuccess: (channel, change) => {
      showSuccess(t('common.operationSuccess'));
      const { id, ...fields } = change;
      patchCachedChannel(queryClient, id, channel ? pickListFields(channel) : fields);
    },
  });
}

const pickListFields = ({ status, priority, weight }: Channel): Partial<ChannelRow> => ({
  status,
  priority,
  weight,
});

/** DELETE /api/channel/{id}/: the row is hidden at once. */
export const useDeleteChannel = () => useDeleteRow('channels', '/api/channel/');

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** GET /api/channel/test/{id}/: one short chat call; its time (seconds) becomes the row's response time. */
export function useTestChannel() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (channel: Pick<Channel, 'id' | 'name'>) => {
      const { data } = await api.get<{ time: number; modelName: string }>(`/api/channel/test/${channel.id}/`);
      return data?.time ?? 0;
    },
    onSuccess: (time, channel) => {
      showInfo(t('channels.tested', { name: channel.name, time: time.toFixed(2) }));
      patchCachedChannel(queryClient, channel.id, {
        response_time: Math.round(time * 1000),
        test_time: nowSeconds(),
        test_error: '',
        test_failure: undefined,
      });
    },
    // The client has shown the server's message; the server recorded the time of the try and its failure.
    onError: () => queryClient.invalidateQueries({ queryKey: channelsKeys.all }),
  });
}

/** GET /api/channel/update_balance/{id}/: reads the balance from the provider and shows it in the row. */
export function useUpdateChannelBalance() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (channel: Pick<Channel, 'id' | 'name'>) => {
      const { data } = await api.get<{ balance: number }>(`/api/channel/update_balance/${channel.id}/`);
      return data?.balance ?? 0;
    },
    onSuccess: (balance, channel) => {
      showInfo(t('channels.balanceUpdated', { name: channel.name }));
      patchCachedChannel(queryClient, channel.id, { balance, balance_updated_time: nowSeconds() });
    },
  });
}
