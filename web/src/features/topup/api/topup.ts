import type { User } from '@switchyard/contract/users';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiError, api, fetchData, reportHttpFailure } from '../../../lib/api-client';
import { showError, showSuccess } from '../../../lib/toast';

const selfKey = ['topup', 'self'] as const;

/** GET /api/user/self: the caller's current quota. */
export function useOwnQuota() {
  return useQuery({
    queryKey: selfKey,
    queryFn: () => fetchData<User>('/api/user/self').then((user) => user.quota),
    staleTime: 0,
  });
}

/**
 * POST /api/user/topup: redeem a code. The quota shown grows by the amount answered; a refusal
 * shows the server's message and a call that never reached the server says the request failed.
 */
export function useRedeemCode() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (key: string) => {
      const { data } = await api.post<number>('/api/user/topup', { key }, { silent: true });
      return data ?? 0;
    },
    onSuccess: (added) => {
      showSuccess(t('topup.redeemed'));
      queryClient.setQueryData<number>(selfKey, (quota) => (quota ?? 0) + added);
      void queryClient.invalidateQueries({ queryKey: selfKey });
    },
    onError: (error) => {
      if (!(error instanceof ApiError) || error.kind === 'network') showError(t('topup.requestFailed'));
      else if (error.kind === 'refused') showError(error.message || t('topup.requestFailed'));
      // A 401 has already been handled by the client (back to the login page).
      else if (error.status !== 401) reportHttpFailure(error.status, error.message);
    },
  });
}
