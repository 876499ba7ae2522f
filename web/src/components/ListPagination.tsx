import { Group, Pagination } from '@mantine/core';

/** Page buttons with one sibling and one boundary page, as the spec asks; centred, clear of the toasts. */
export function ListPagination({
  total,
  value,
  onChange,
}: {
  total: number;
  value: number;
  onChange: (page: number) => void;
}) {
  return (
    <Group justify="center" mt="md">
      <Pagination total={total} value={value} onChange={onChange} siblings={1} boundaries={1} size="sm" />
    </Group>
  );
}
