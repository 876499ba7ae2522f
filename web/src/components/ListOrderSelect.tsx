import { Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The sort order of a list; labels live under `{section}.sort.{order|'default'}`. */
export function ListOrderSelect<Order extends string>({
  section,
  orders,
  value,
  onChange,
}: {
  section: string;
  orders: readonly Order[];
  value: Order;
  onChange: (order: Order) => void;
}) {
  const { t } = useTranslation();
  return (
    <Select
      w={{ base: '100%', xs: 200 }}
      aria-label={t(`${section}.sort.label`)}
      data={orders.map((order) => ({ value: order, label: t(`${section}.sort.${order || 'default'}`) }))}
      value={value}
      allowDeselect={false}
      onChange={(next) => onChange((next ?? '') as Order)}
    />
  );
}
