import type { DashboardRow } from '@switchyard/contract/logs';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { fetchData } from '../../../lib/api-client';

/** Whose usage: one's own, everyone's (admins) or one named user's (admins). */
export type DashboardScope = { kind: 'self' } | { kind: 'all' } | { kind: 'user'; username: string };

export interface DashboardRequest {
  start: number;
  end: number;
  scope: DashboardScope;
}

/** GET /api/user/dashboard: consumption per day and model over the range. */
export function useDashboard({ start, end, scope }: DashboardRequest) {
  const who =
    scope.kind === 'all' ? { scope: 'all' } : scope.kind === 'user' ? { username: scope.username } : {};
  return useQuery({
    queryKey: ['logs', 'dashboard', start, end, who] as const,
    queryFn: () =>
      fetchData<DashboardRow[]>('/api/user/dashboard', {
        query: { start_timestamp: start, end_timestamp: end, ...who },
      }).then((rows) => rows ?? []),
    enabled: scope.kind !== 'user' || scope.username !== '',
    placeholderData: keepPreviousData,
  });
}
