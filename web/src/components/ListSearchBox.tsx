import { Group, TextInput } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { KeywordSearch } from '../lib/use-keyword-search';
import { ListOrderSelect } from './ListOrderSelect';

/** A list's sort order; labels live under `{section}.sort.{order|'default'}`. */
export interface ListOrder<Order extends string> {
  section: string;
  orders: readonly Order[];
  value: Order;
  set: (order: Order) => void;
}

/**
 * The keyword box of a list screen, with the order (when the list has one) and any other controls
 * beside it. Enter searches; a new order leaves the search. Either way `onSearch` runs after (back
 * to page 1).
 */
export function ListSearchBox<Order extends string>({
  search,
  placeholder,
  onSearch,
  order,
  children,
}: {
  search: KeywordSearch;
  placeholder: string;
  onSearch: () => void;
  order?: ListOrder<Order>;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Group mb="md" gap="sm" align="flex-end" wrap="wrap">
      <form
        style={{ flex: '1 1 260px' }}
        onSubmit={(event) => {
          event.preventDefault();
          search.submit();
          onSearch();
        }}
      >
        <TextInput
          placeholder={placeholder}
          aria-label={t('common.search')}
          name="keyword"
          value={search.input}
          onChange={(event) => search.setInput(event.currentTarget.value)}
        />
      </form>
      {order && (
        <ListOrderSelect
          section={order.section}
          orders={order.orders}
          value={order.value}
          onChange={(next) => {
            order.set(next);
            search.clear();
            onSearch();
          }}
        />
      )}
      {children}
    </Group>
  );
}
