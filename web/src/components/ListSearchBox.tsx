import { Group, Select, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ListOrder } from '../lib/list-order';
import type { KeywordSearch } from '../lib/use-keyword-search';

/**
 * The keyword box of a list screen, with the order's menu beside it on phones when the list has one
 * (wider screens sort by the table's headers). Enter searches, then `onSearch` runs (back to page 1).
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
          hiddenFrom="xs"
          w="100%"
          aria-label={t(`${order.section}.sort.label`)}
          data={order.orders.map((value) => ({
            value,
            label: t(`${order.section}.sort.${value || 'default'}` as string),
          }))}
          value={order.value}
          allowDeselect={false}
          onChange={(next) => order.set((next ?? '') as Order)}
        />
      )}
    </Group>
  );
}
