import { Group, Select, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { KeywordSearch } from '../lib/use-keyword-search';

/** A list's sort order; labels live under `{section}.sort.{order|'default'}`. */
export interface ListOrder<Order extends string> {
  section: string;
  orders: readonly Order[];
  value: Order;
  set: (order: Order) => void;
}

/**
 * The keyword box of a list screen, with the order beside it when the list has one. Enter searches;
 * a new order leaves the search. Either way `onSearch` runs after (back to page 1).
 */
export function ListSearchBox<Order extends string>({
  search,
  placeholder,
  onSearch,
  order,
}: {
  search: KeywordSearch;
  placeholder: string;
  onSearch: () => void;
  order?: ListOrder<Order>;
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
        <Select
          w={{ base: '100%', xs: 200 }}
          aria-label={t(`${order.section}.sort.label`)}
          data={order.orders.map((value) => ({
            value,
            label: t(`${order.section}.sort.${value || 'default'}` as string),
          }))}
          value={order.value}
          allowDeselect={false}
          onChange={(next) => {
            order.set((next ?? '') as Order);
            search.clear();
            onSearch();
          }}
        />
      )}
    </Group>
  );
}
