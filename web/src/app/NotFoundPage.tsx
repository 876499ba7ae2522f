import { Button, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Stack align="center" gap="md" py={80} ta="center">
      <Text fz={64} fw={800} c="dimmed" lh={1}>
        404
      </Text>
      <Title order={2}>{t('notFound.title')}</Title>
      <Text c="dimmed">{t('notFound.message')}</Text>
      <Button component={Link} to="/" variant="light">
        {t('notFound.home')}
      </Button>
    </Stack>
  );
}
