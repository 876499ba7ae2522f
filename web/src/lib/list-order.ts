import type { KeywordSearch } from './use-keyword-search';

/**
 * A list's server sort order ('' is the default, newest first); labels live under
 * `{section}.sort.{order|'default'}`. Choosing one leaves the search and goes back to page 1.
 */
export interface ListOrder<Order extends string> {
  section: string;
  orders: readonly Order[];
  value: Order;
  set: (order: Order) => void;
}

export function listOrder<Order extends string>(
  section: string,
  orders: readonly Order[],
  [value, setValue]: [Order, (order: Order) => void],
  search: KeywordSearch,
  list: { reset: () => void },
): ListOrder<Order> {
  return {
    section,
    orders,
    value,
    set: (order) => {
      setValue(order);
      search.clear();
      list.reset();
    },
  };
}
