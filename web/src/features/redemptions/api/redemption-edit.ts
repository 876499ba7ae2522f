import type {
  CreateRedemptionInput,
  Redemption,
  UpdateRedemptionInput,
} from '@switchyard/contract/redemptions';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, fetchData } from '../../../lib/api-client';
import { redemptionsKeys } from './redemptions-list';

/** GET /api/redemption/{id}: the code being edited. */
export function useRedemption(id: number) {
  return useQuery({
    queryKey: redemptionsKeys.one(id),
    queryFn: () => fetchData<Redemption>(`/api/redemption/${id}`),
    staleTime: 0,
  });
}

/** POST /api/redemption/: creates `count` codes and answers their keys. */
export function useCreateRedemptions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: CreateRedemptionInput) => {
      const { data } = await api.post<string[]>('/api/redemption/', input);
      return data ?? [];
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: redemptionsKeys.all }),
  });
}

/** PUT /api/redemption/: name and quota of one code. */
export function useUpdateRedemption() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateRedemptionInput) => api.put<Redemption>('/api/redemption/', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: redemptionsKeys.all }),
  });
}
