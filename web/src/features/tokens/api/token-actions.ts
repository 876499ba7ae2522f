import type { Token } from '@switchyard/contract/tokens';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../../lib/api-client';
import { showSuccess } from '../../../lib/toast';
import { patchCachedToken } from './tokens-list';

/** PUT /api/token/?status_only=true: enable (1) or disable (2); the answer's status updates the row. */
export function useSetTokenStatus() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, status }: { id: number; status: 1 | 2 }) => {
      const { data } = await api.put<Token>('/api/token/', { id, status }, { query: { status_only: true } });
      return data;
    },
    onSuccess: (token, { id, status }) => {
      showSuccess(t('common.operationSuccess'));
      patchCachedToken(queryClient, id, { status: token?.status ?? status });
    },
  });
}

/** DELETE /api/token/{id}/: the row is hidden at once. */
export function useDeleteToken() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/api/token/${id}/`),
    onSuccess: (_answer, id) => {
      showSuccess(t('common.operationSuccess'));
      patchCachedToken(queryClient, id, { deleted: true });
    },
  });
}
