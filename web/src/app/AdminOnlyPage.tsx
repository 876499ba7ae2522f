import { Button, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** Shown to a signed-in user who opens an administrator's page. */
export function AdminOnlyPage() {
  const { t } = useTranslation();
  return (
    <Stack align="center" gap="md" py={80} ta="center" data-testid="admin-only">
      <Text fz={64} fw={800} c="dimmed" lh={1}>
        403
      </Text>
      <Title order={2}>{t('adminOnly.title')}</Title>
      <Text c="dimmed">{t('adminOnly.message')}</Text>
      <Button component={Link} to="/token" variant="light">
        {t('adminOnly.back')}
      </Button>
    </Stack>
  );
}
