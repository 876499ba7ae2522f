import type { RateLimits } from '@switchyard/contract/limits';
import type { CreateTokenInput, Token, UpdateTokenInput } from '@switchyard/contract/tokens';
import type { User } from '@switchyard/contract/users';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, fetchData } from '../../../lib/api-client';
import { tokensKeys } from './tokens-list';

/** GET /api/token/{id}: the token being edited. */
export function useToken(id: number) {
  return useQuery({
    queryKey: tokensKeys.one(id),
    queryFn: () => fetchData<Token>(`/api/token/${id}`),
    staleTime: 0,
  });
}

/** GET /api/user/available_models: the models the caller's group may use. */
export function useAvailableModels() {
  return useQuery({
    queryKey: tokensKeys.availableModels,
    queryFn: () => fetchData<string[]>('/api/user/available_models').then((models) => models ?? []),
  });
}

/** GET /api/user/self: the limits an administrator set on the caller, which cap each of their keys. */
export function useOwnLimits() {
  return useQuery({
    queryKey: tokensKeys.ownLimits,
    queryFn: async (): Promise<RateLimits> => {
      const { rpm_limit, tpm_limit, concurrency_limit } = await fetchData<User>('/api/user/self');
      return { rpm_limit, tpm_limit, concurrency_limit };
    },
  });
}

export type TokenChange = { id: null; input: CreateTokenInput } | { id: number; input: UpdateTokenInput };

/** POST /api/token/ (create) or PUT /api/token/ (update); the lists reload afterwards. */
export function useSaveToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: TokenChange) =>
      change.id === null
        ? api.post<Token>('/api/token/', change.input)
        : api.put<Token>('/api/token/', change.input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokensKeys.all }),
  });
}
