import { Center, Loader, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Shown while a page's code or data loads: "Loading {page}..." (default label "page"). */
export function PageLoading({ page }: { page?: string }) {
  const { t } = useTranslation();
  return (
    <Center mih={240} data-testid="page-loading">
      <Stack align="center" gap="xs">
        <Loader size="md" />
        <Text c="dimmed">{t('loading.page', { page: page ?? t('loading.defaultPage') })}</Text>
      </Stack>
    </Center>
  );
}
