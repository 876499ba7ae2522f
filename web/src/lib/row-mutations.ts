import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from './api-client';
import { patchCachedRows } from './list-queries';
import { showSuccess } from './toast';

// Both say "operation succeeded" and change the cached row in place: the lists do not reload.

type Row = { id: number; status?: number; deleted?: boolean };

/**
 * PUT `path?status_only=true`: enable (1) or disable (2) a row of `section`; the answer's status,
 * else the one asked for, updates the row.
 */
export function useSetRowStatus(section: string, path: string) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, status }: { id: number; status: 1 | 2 }) => {
      const { data } = await api.put<{ status: number }>(
        path,
        { id, status },
        { query: { status_only: true } },
      );
      return data;
    },
    onSuccess: (saved, { id, status }) => {
      showSuccess(t('common.operationSuccess'));
      patchCachedRows<Row>(queryClient, section, (row) => row.id === id, { status: saved?.status ?? status });
    },
  });
}

/** DELETE `path{id}/`: the row of `section` is hidden at once. */
export function useDeleteRow(section: string, path: string) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`${path}${id}/`),
    onSuccess: (_answer, id) => {
      showSuccess(t('common.operationSuccess'));
      patchCachedRows<Row>(queryClient, section, (row) => row.id === id, { deleted: true });
    },
  });
}
