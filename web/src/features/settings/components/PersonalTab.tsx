import { SimpleGrid, Stack } from '@mantine/core';
import { AccessCard } from './AccessCard';
import { AccountBindings } from './AccountBindings';
import { DeleteAccount } from './DeleteAccount';
import { SignOutEverywhere } from './SignOutEverywhere';
import { TwoFactorCard } from './TwoFactorCard';

/** Everyone's tab: access token, invitation link, account bindings, two-factor sign-in, signing out everywhere, self-deletion. */
export function PersonalTab() {
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <AccessCard />
        <AccountBindings />
      </SimpleGrid>
      <TwoFactorCard />
      <SignOutEverywhere />
      <DeleteAccount />
    </Stack>
  );
}
