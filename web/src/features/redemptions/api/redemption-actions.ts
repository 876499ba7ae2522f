import type { Redemption } from '@switchyard/contract/redemptions';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../../lib/api-client';
import { showSuccess } from '../../../lib/toast';
import { patchCachedRedemption } from './redemptions-list';

/** PUT /api/redemption/?status_only=true: 1 (unused) ↔ 2 (disabled); the answer updates the row. */
export function useSetRedemptionStatus() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, status }: { id: number; status: 1 | 2 }) => {
      const { data } = await api.put<Redemption>(
        '/api/redemption/',
        { id, status },
        { query: { status_only: true } },
      );
      return data;
    },
    onSuccess: (redemption, { id, status }) => {
      showSuccess(t('common.operationSuccess'));
      patchCachedRedemption(queryClient, id, { status: redemption?.status ?? status });
    },
  });
}

/** DELETE /api/redemption/{id}/: the row is hidden at once. */
export function useDeleteRedemption() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/api/redemption/${id}/`),
    onSuccess: (_answer, id) => {
      showSuccess(t('common.operationSuccess'));
      patchCachedRedemption(queryClient, id, { deleted: true });
    },
  });
}
