import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';

interface AuthLinkProps {
  question: string;
  label: string;
  to: string;
  centered?: boolean;
}

/** A dimmed question under a sign-in form with the link that answers it ("No account? Register"). */
export function AuthLink({ question, label, to, centered = false }: AuthLinkProps) {
  return (
    <Text size="sm" c="dimmed" ta={centered ? 'center' : undefined}>
      {question}{' '}
      <Anchor component={Link} to={to} size="sm">
        {label}
      </Anchor>
    </Text>
  );
}
