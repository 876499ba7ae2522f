import { ITEMS_PER_PAGE } from '@switchyard/contract/envelope';

/**
 * Pages of a list cached page by page from the server. While the last cached page is
 * full, one more page button is offered; choosing it fetches the next server page.
 */
export function pageCount(cachedRows: number, mayHaveMore: boolean): number {
  const full = Math.ceil(cachedRows / ITEMS_PER_PAGE);
  return Math.max(1, full + (mayHaveMore && cachedRows % ITEMS_PER_PAGE === 0 ? 1 : 0));
}

/** Rows of a 1-based page. */
export function pageSlice<T>(rows: T[], page: number): T[] {
  return rows.slice((page - 1) * ITEMS_PER_PAGE, page * ITEMS_PER_PAGE);
}

/** Whether showing `page` needs another server page first. */
export const needsFetch = (cachedRows: number, page: number): boolean =>
  (page - 1) * ITEMS_PER_PAGE >= cachedRows;
