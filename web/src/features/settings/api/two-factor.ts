import type { TwoFactorEnabled, TwoFactorSetup, TwoFactorStatus } from '@switchyard/contract/two-factor';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, fetchData } from '../../../lib/api-client';

const twoFactorKey = ['settings', 'two-factor'] as const;

/** GET /api/user/2fa: on or off, whether root requires it, recovery codes left. */
export function useTwoFactorStatus() {
  return useQuery({
    queryKey: twoFactorKey,
    queryFn: () => fetchData<TwoFactorStatus>('/api/user/2fa'),
    staleTime: 0,
  });
}

/** POST /api/user/2fa/setup: a new secret with its QR code, waiting for a code to confirm it. */
export function useStartTwoFactor() {
  return useMutation({
    mutationFn: async () => (await api.post<TwoFactorSetup>('/api/user/2fa/setup')).data as TwoFactorSetup,
  });
}

/** POST /api/user/2fa/enable: answers the recovery codes, shown this once. */
export function useEnableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (code: string) =>
      (await api.post<TwoFactorEnabled>('/api/user/2fa/enable', { code })).data as TwoFactorEnabled,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: twoFactorKey }),
  });
}

/** POST /api/user/2fa/recovery_codes: ten new codes for a current one, shown this once. */
export function useRenewRecoveryCodes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (code: string) =>
      (await api.post<TwoFactorEnabled>('/api/user/2fa/recovery_codes', { code })).data as TwoFactorEnabled,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: twoFactorKey }),
  });
}

/** POST /api/user/2fa/disable with a current code or a recovery code. */
export function useDisableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => api.post('/api/user/2fa/disable', { code }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: twoFactorKey }),
  });
}
