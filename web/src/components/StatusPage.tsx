import { Button, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

interface StatusPageProps {
  /** The big number on top (404, 403). */
  code: number;
  title: string;
  message: string;
  action: { label: string; to: string };
  testId?: string;
}

/** A whole page that says why there is nothing here, and where to go instead. */
export function StatusPage({ code, title, message, action, testId }: StatusPageProps) {
  return (
    <Stack align="center" gap="md" py={80} ta="center" data-testid={testId}>
      <Text fz={64} fw={800} c="dimmed" lh={1}>
        {code}
      </Text>
      <Title order={2}>{title}</Title>
      <Text c="dimmed">{message}</Text>
      <Button component={Link} to={action.to} variant="light">
        {action.label}
      </Button>
    </Stack>
  );
}
