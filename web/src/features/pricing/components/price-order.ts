import type { PriceRow } from '@switchyard/contract/pricing';

export const PRICE_ORDERS = ['', 'input', 'output'] as const;
export type PriceOrder = (typeof PRICE_ORDERS)[number];

/** The rows whose model or group holds the keyword, in the order chosen (prices highest first). */
export function visiblePrices(rows: readonly PriceRow[], keyword: string, order: PriceOrder): PriceRow[] {
  const needle = keyword.trim().toLowerCase();
  const found = needle
    ? rows.filter(
        (row) => row.model.toLowerCase().includes(needle) || row.group.toLowerCase().includes(needle),
      )
    : [...rows];
  if (order === '') return found;
  const price = (row: PriceRow) => (order === 'input' ? row.input : (row.output ?? -1));
  return found.sort((a, b) => price(b) - price(a) || a.model.localeCompare(b.model));
}
