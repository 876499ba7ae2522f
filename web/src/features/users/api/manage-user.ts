import type { ManageAction } from '@switchyard/contract/users';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../../lib/api-client';
import { showSuccess } from '../../../lib/toast';
import { patchCachedUser } from './users-list';

/** POST /api/user/manage; the answer's role and status update the row, a delete hides it. */
export function useManageUser() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ username, action }: { username: string; action: ManageAction }) => {
      const { data } = await api.post<{ role: number; status: number }>('/api/user/manage', {
        username,
        action,
      });
      return data;
    },
    onSuccess: (data, { username, action }) => {
      showSuccess(t('common.operationSuccess'));
      if (action === 'delete') patchCachedUser(queryClient, username, { deleted: true });
      else if (data) patchCachedUser(queryClient, username, { role: data.role, status: data.status });
    },
  });
}
