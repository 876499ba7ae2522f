import { Card, Group, Text } from '@mantine/core';
import type { ReactNode } from 'react';

type ListCardProps = {
  title: ReactNode;
  badge: ReactNode;
  /** Dimmed detail lines ("label value"), one under the other. */
  lines: ReactNode[];
  actions: ReactNode;
} & { [data: `data-${string}`]: string | number };

/** One row of a list as a card on phones: title and status, detail lines, then the row's buttons. */
export function ListCard({ title, badge, lines, actions, ...data }: ListCardProps) {
  return (
    <Card withBorder padding="sm" {...data}>
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Text fw={600} truncate="end">
          {title}
        </Text>
        {badge}
      </Group>
      {lines.map((line, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the lines are fixed.
        <Text key={index} size="xs" c="dimmed" mt={index === 0 ? 'xs' : undefined}>
          {line}
        </Text>
      ))}
      <Group mt="sm">{actions}</Group>
    </Card>
  );
}
