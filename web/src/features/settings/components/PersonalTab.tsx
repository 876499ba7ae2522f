import { SimpleGrid, Stack } from '@mantine/core';
import { AccessCard } from './AccessCard';
import { AccountBindings } from './AccountBindings';
import { DeleteAccount } from './DeleteAccount';

/** Everyone's tab: access token, invitation link, account bindings and self-deletion. */
export function PersonalTab() {
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <AccessCard />
        <AccountBindings />
      </SimpleGrid>
      <DeleteAccount />
    </Stack>
  );
}
