import type { ErrorParams } from './render-error';

/**
 * Every /api answer has this shape. `data` is left out when a call returns nothing. A refusal carries
 * the stable `code` of its message (see error-messages.ts) and, when it has any, the message's `params`.
 */
export interface Envelope<T = unknown> {
  success: boolean;
  message: string;
  data?: T;
  code?: string;
  params?: ErrorParams;
}

/** Page size of every paged list (one-api's ItemsPerPage). */
export const ITEMS_PER_PAGE = 10;

/** The most rows a search answers (search endpoints do not page). */
export const SEARCH_LIMIT = 100;

/** A list's `order` parameter: one of the columns the list allows, else the default order (by id). */
export function listOrder<T extends string>(allowed: readonly T[], value: string | undefined): T | 'id' {
  return allowed.find((order) => order === value) ?? 'id';
}

/** An id, count or timestamp typed as text (a query parameter, a search box): digits that stay exact. */
export const wholeNumberText = (text: string): number | undefined =>
  /^\d{1,15}$/.test(text) ? Number(text) : undefined;
