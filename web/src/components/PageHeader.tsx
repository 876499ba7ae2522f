import { Group, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** Page title with optional actions on the right; wraps on phones. */
export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Group justify="space-between" align="center" mb="md" gap="sm">
      <Title order={2} fz={{ base: 'h3', sm: 'h2' }}>
        {title}
      </Title>
      {children && (
        <Group gap="xs" wrap="wrap">
          {children}
        </Group>
      )}
    </Group>
  );
}
