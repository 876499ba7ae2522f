import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../../lib/api-client';
import { showInfo, showSuccess } from '../../../lib/toast';
import { channelsKeys } from './channels-list';

export type TestScope = 'all' | 'disabled';

/** GET /api/channel/test?scope=: the server tests the channels in the background. */
export function useTestChannels() {
  const { t } = useTranslation();
  return useMutation({
    mutationFn: (scope: TestScope) => api.get('/api/channel/test', { query: { scope } }),
    onSuccess: () => showInfo(t('channels.testStarted')),
  });
}

/** DELETE /api/channel/disabled: removes every disabled channel and says how many. */
export function useDeleteDisabledChannels() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => (await api.delete<number>('/api/channel/disabled')).data ?? 0,
    onSuccess: (count) => {
      showSuccess(t('channels.disabledDeleted', { total: count }));
      return queryClient.invalidateQueries({ queryKey: channelsKeys.all });
    },
  });
}
