import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../../lib/api-client';
import { beginLeaving, clearSession } from '../../../lib/session';
import { showSuccess } from '../../../lib/toast';

/** GET /api/user/logout, then forget the user locally (even if the server call fails). */
export function useLogout() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.get('/api/user/logout'),
    onMutate: beginLeaving,
    onSuccess: () => showSuccess(t('nav.logoutSuccess')),
    onSettled: () => {
      clearSession();
      queryClient.clear();
    },
  });
}
