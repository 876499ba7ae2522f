import { ScrollArea, Table } from '@mantine/core';
import type { ReactNode } from 'react';

interface ListTableProps {
  /** The width below which the table scrolls sideways. */
  miw: number;
  testId: string;
  headers: string[];
  /** The rows (`Table.Tr`). */
  children: ReactNode;
}

/** A list screen's table on wider screens: a header row, then the rows, scrolling sideways when narrow. */
export function ListTable({ miw, testId, headers, children }: ListTableProps) {
  return (
    <ScrollArea type="auto" offsetScrollbars>
      <Table miw={miw} verticalSpacing="sm" highlightOnHover data-testid={testId}>
        <Table.Thead>
          <Table.Tr>
            {headers.map((header, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed.
              <Table.Th key={index}>{header}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </ScrollArea>
  );
}
