import type { Redemption } from '@switchyard/contract/redemptions';
import { useServerPages, useServerSearch } from '../../../lib/list-queries';

/** A row of the list; `deleted` hides a row right after a successful delete. */
export type RedemptionRow = Redemption & { deleted?: boolean };

export const redemptionsKeys = {
  all: ['redemptions'] as const,
  pages: ['redemptions', 'pages'] as const,
  search: (keyword: string) => ['redemptions', 'search', keyword] as const,
  one: (id: number) => ['redemptions', 'one', id] as const,
};

/** GET /api/redemption/?p=: pages of 10, newest first, the next fetched on demand. */
export function useRedemptionPages() {
  return useServerPages<RedemptionRow>(redemptionsKeys.pages, '/api/redemption/');
}

/** GET /api/redemption/search?keyword=: by id or name, not paged. */
export function useRedemptionSearch(keyword: string) {
  return useServerSearch<RedemptionRow>(redemptionsKeys.search(keyword), '/api/redemption/search', keyword);
}
