import type { Passkey } from '@switchyard/contract/two-factor';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, fetchData } from '../../../lib/api-client';

const passkeysKey = ['settings', 'passkeys'] as const;

/** GET /api/user/2fa/passkeys, once two-factor sign-in is on. */
export function usePasskeys(enabled: boolean) {
  return useQuery({
    queryKey: passkeysKey,
    queryFn: async () => (await fetchData<Passkey[]>('/api/user/2fa/passkeys')) ?? [],
    enabled,
    staleTime: 0,
  });
}

/** The browser's passkey dialog between the server's options and the registration it checks. */
export function useAddPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) => {
      const { startRegistration } = await import('@simplewebauthn/browser');
      const { data } = await api.post<Parameters<typeof startRegistration>[0]['optionsJSON']>(
        '/api/user/2fa/passkeys/options',
      );
      if (!data) throw new Error('passkey options missing');
      const credential = await startRegistration({ optionsJSON: data });
      return api.post<Passkey>('/api/user/2fa/passkeys', { name, credential });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: passkeysKey }),
  });
}

/** DELETE /api/user/2fa/passkeys/{id}. */
export function useRemovePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/api/user/2fa/passkeys/${encodeURIComponent(id)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: passkeysKey }),
  });
}
