import { Group, ScrollArea, Table, Text, UnstyledButton } from '@mantine/core';
import type { ReactNode } from 'react';
import type { ListOrder } from '../lib/list-order';

/** Which list order each column's header chooses (null: not sortable); '' is the default order. */
export interface HeaderSort<Order extends string> {
  order: ListOrder<Order>;
  byColumn: readonly (Order | null)[];
}

interface ListTableProps<Order extends string> {
  /** The width below which the table scrolls sideways. */
  miw: number;
  testId: string;
  headers: string[];
  /** Sortable headers (the server sorts largest first); phones choose the order from a menu instead. */
  sort?: HeaderSort<Order>;
  /** The rows (`Table.Tr`). */
  children: ReactNode;
}

/** A list screen's table on wider screens: a header row, then the rows, scrolling sideways when narrow. */
export function ListTable<Order extends string>({
  miw,
  testId,
  headers,
  sort,
  children,
}: ListTableProps<Order>) {
  return (
    <ScrollArea type="auto" offsetScrollbars>
      <Table miw={miw} verticalSpacing="sm" highlightOnHover data-testid={testId}>
        <Table.Thead>
          <Table.Tr>
            {headers.map((header, index) => {
              const order = sort?.byColumn[index];
              return (
                // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed.
                <Table.Th key={index} aria-sort={sort && order != null ? sortState(sort, order) : undefined}>
                  {sort && order != null ? <SortButton sort={sort} order={order} label={header} /> : header}
                </Table.Th>
              );
            })}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </ScrollArea>
  );
}

const sortState = <Order extends string>(sort: HeaderSort<Order>, order: Order) =>
  sort.order.value === order ? 'descending' : 'none';

/** A header that sorts by its column; pressed again, it goes back to the default order. */
function SortButton<Order extends string>({
  sort,
  order,
  label,
}: {
  sort: HeaderSort<Order>;
  order: Order;
  label: string;
}) {
  const active = sort.order.value === order;
  return (
    <UnstyledButton
      fw={700}
      fz="sm"
      data-sort={order || 'default'}
      onClick={() => sort.order.set(active ? ('' as Order) : order)}
    >
      <Group gap={4} wrap="nowrap">
        {label}
        <Text span inherit c={active ? undefined : 'dimmed'} aria-hidden>
          {active ? '↓' : '↕'}
        </Text>
      </Group>
    </UnstyledButton>
  );
}
