import { EmptyState } from '@mantine/core';
import type { ReactNode } from 'react';

/** The "nothing here" state of a list or screen. */
export function EmptyPanel({
  title,
  text,
  children,
}: {
  title: string;
  text?: string;
  children?: ReactNode;
}) {
  return (
    <EmptyState
      py="xl"
      title={title}
      description={text}
      withIndicatorBackground
      icon={<span aria-hidden>∅</span>}
      data-testid="empty-state"
    >
      {children && <EmptyState.Actions>{children}</EmptyState.Actions>}
    </EmptyState>
  );
}
