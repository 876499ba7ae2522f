import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, fetchData } from '../../../lib/api-client';

const keyOf = (id: number) => ['users', 'two-factor', id] as const;

/** GET /api/user/{id}/2fa (root): whether the user's two-factor sign-in is on. */
export function useUserTwoFactor(id: number) {
  return useQuery({
    queryKey: keyOf(id),
    queryFn: () => fetchData<{ enabled: boolean }>(`/api/user/${id}/2fa`),
    staleTime: 0,
  });
}

/** DELETE /api/user/{id}/2fa (root): for a user who lost the device. */
export function useResetUserTwoFactor(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete(`/api/user/${id}/2fa`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keyOf(id) }),
  });
}
