import type { LogEntry } from '@switchyard/contract/logs';
import { useQuery } from '@tanstack/react-query';
import { fetchData, type Query } from '../../../lib/api-client';
import { useServerPages } from '../../../lib/list-queries';

/** The query string of the log filters, as GET /api/log/ and /api/log/self/ take it (without p). */
export type LogQuery = Query;

export const logsKeys = {
  all: ['logs'] as const,
  pages: (admin: boolean, query: LogQuery) => ['logs', 'pages', admin, query] as const,
  stat: (admin: boolean, query: LogQuery) => ['logs', 'stat', admin, query] as const,
};

/** Admins read everyone's logs; everybody else their own (spec section 6). */
const listPath = (admin: boolean) => (admin ? '/api/log/' : '/api/log/self/');
const statPath = (admin: boolean) => (admin ? '/api/log/stat' : '/api/log/self/stat');

/** Log pages of 10 for the filters, newest first. */
export const useLogPages = (admin: boolean, query: LogQuery) =>
  useServerPages<LogEntry>(logsKeys.pages(admin, query), listPath(admin), query);

/** The quota total of the logs matching the filters (data.quota). */
export function useLogStat(admin: boolean, query: LogQuery) {
  return useQuery({
    queryKey: logsKeys.stat(admin, query),
    queryFn: () => fetchData<{ quota: number }>(statPath(admin), { query }).then((stat) => stat?.quota ?? 0),
    staleTime: 0,
  });
}
