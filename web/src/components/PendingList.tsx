import { Button, Paper, ScrollArea, Table, TextInput } from '@mantine/core';
import { Link } from 'react-router';
import { EmptyPanel } from './EmptyPanel';
import { PageHeader } from './PageHeader';

interface PendingListProps {
  title: string;
  columns: string[];
  emptyTitle: string;
  emptyText: string;
  searchPlaceholder?: string;
  addLabel?: string;
  addTo?: string;
}

/** The final layout of a list whose data arrives in a later release: header, search, columns, empty state. */
export function PendingList(props: PendingListProps) {
  return (
    <>
      <PageHeader title={props.title}>
        {props.addLabel && props.addTo && (
          <Button component={Link} to={props.addTo}>
            {props.addLabel}
          </Button>
        )}
      </PageHeader>
      <Paper withBorder p={{ base: 'sm', sm: 'md' }}>
        {props.searchPlaceholder && (
          <TextInput
            placeholder={props.searchPlaceholder}
            mb="md"
            disabled
            aria-label={props.searchPlaceholder}
          />
        )}
        <ScrollArea type="auto">
          <Table miw={Math.max(600, props.columns.length * 90)} verticalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                {props.columns.map((column) => (
                  <Table.Th key={column}>{column}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
          </Table>
        </ScrollArea>
        <EmptyPanel title={props.emptyTitle} text={props.emptyText} />
      </Paper>
    </>
  );
}
