import type { Token, tokenListOrders } from '@switchyard/contract/tokens';
import { useServerPages, useServerSearch } from '../../../lib/list-queries';

export type TokenOrder = '' | (typeof tokenListOrders)[number];

/** A row of the list; `deleted` hides a row right after a successful delete. */
export type TokenRow = Token & { deleted?: boolean };

export const tokensKeys = {
  all: ['tokens'] as const,
  pages: (order: TokenOrder) => ['tokens', 'pages', order] as const,
  search: (keyword: string) => ['tokens', 'search', keyword] as const,
  one: (id: number) => ['tokens', 'one', id] as const,
  availableModels: ['tokens', 'available-models'] as const,
  ownLimits: ['tokens', 'own-limits'] as const,
};

/** GET /api/token/?p=&order=: the caller's tokens in pages of 10, the next fetched on demand. */
export function useTokenPages(order: TokenOrder) {
  return useServerPages<TokenRow>(tokensKeys.pages(order), '/api/token/', { order });
}

/** GET /api/token/search?keyword=: every match, not paged. */
export function useTokenSearch(keyword: string) {
  return useServerSearch<TokenRow>(tokensKeys.search(keyword), '/api/token/search', keyword);
}
