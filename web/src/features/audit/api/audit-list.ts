import type { AuditEntry } from '@switchyard/contract/audit';
import { ITEMS_PER_PAGE } from '@switchyard/contract/envelope';
import { useInfiniteQuery } from '@tanstack/react-query';
import { fetchData, type Query } from '../../../lib/api-client';

/** The audit filters as GET /api/audit/ takes them (without p). */
export type AuditQuery = Query;

/** Audit pages of 10, newest first; the next is fetched when the last cached one is reached. */
export function useAuditPages(query: AuditQuery) {
  return useInfiniteQuery({
    queryKey: ['audit', query] as const,
    initialPageParam: 0,
    queryFn: ({ pageParam }) =>
      fetchData<AuditEntry[]>('/api/audit/', { query: { ...query, p: pageParam } }).then(
        (rows) => rows ?? [],
      ),
    getNextPageParam: (lastPage, pages) => (lastPage.length === ITEMS_PER_PAGE ? pages.length : undefined),
    staleTime: 0,
  });
}
