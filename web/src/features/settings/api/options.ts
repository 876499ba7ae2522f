import type { OptionEntry } from '@switchyard/contract/options';
import type { ServerStatus } from '@switchyard/contract/status';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, fetchData } from '../../../lib/api-client';
import { applyBranding, saveServerStatus } from '../../../lib/server-status';

/** Option values by key, as strings; secrets are absent (the server never returns them). */
export type OptionValues = Record<string, string>;

export const settingsKeys = {
  options: ['settings', 'options'] as const,
  self: ['settings', 'self'] as const,
};

/** GET /api/option/ (root only). */
export function useOptions(enabled: boolean) {
  return useQuery({
    queryKey: settingsKeys.options,
    queryFn: async () => {
      const entries = (await fetchData<OptionEntry[]>('/api/option/')) ?? [];
      return Object.fromEntries(entries.map((entry) => [entry.key, entry.value])) as OptionValues;
    },
    enabled,
    staleTime: 0,
  });
}

/** GET /api/status again, so the title, logo, footer and menus follow a saved option at once. */
export async function refreshServerStatus(): Promise<void> {
  try {
    const { data } = await api.get<ServerStatus>('/api/status', { silent: true });
    if (!data) return;
    saveServerStatus(data);
    applyBranding();
  } catch {
    // The option is saved; the status catches up on the next start.
  }
}

/**
 * PUT /api/option/ once per changed value, in order; each saved value enters the cache at once,
 * so a later refusal leaves the earlier ones shown as saved. Secrets are never cached.
 */
export function useSaveOptions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ changes, secrets = [] }: { changes: OptionEntry[]; secrets?: string[] }) => {
      try {
        for (const change of changes) {
          await api.put('/api/option/', change);
          if (secrets.includes(change.key)) continue;
          queryClient.setQueryData<OptionValues>(settingsKeys.options, (values) =>
            values ? { ...values, [change.key]: change.value } : values,
          );
        }
      } finally {
        await refreshServerStatus();
      }
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: settingsKeys.options }),
  });
}
