import { Center, Group, Image, Paper, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { getLogo } from '../../../lib/server-status';

/** The centred card every sign-in screen sits in. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Center py={{ base: 'md', sm: 48 }}>
      <Paper withBorder shadow="sm" radius="md" p={{ base: 'md', sm: 'xl' }} w="100%" maw={440}>
        <Stack gap="lg">
          <Group gap="sm" justify="center" wrap="nowrap">
            <Image src={getLogo()} w={36} h={36} alt="" fit="contain" />
            <Title order={2} fz="h3" ta="center">
              {title}
            </Title>
          </Group>
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}
