import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** DELETE /api/log/?target_timestamp=: logs older than the time are removed; data is how many. */
export function useCleanLogs() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (targetTimestamp: number) => {
      const { data } = await api.delete<number>('/api/log/', {
        query: { target_timestamp: targetTimestamp },
        silent: true,
      });
      return data ?? 0;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['logs'] }),
  });
}
