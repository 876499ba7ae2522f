import { Alert, Button, Code, Container, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { describeError } from '../lib/api-client';

const isChunkFailure = (message: string): boolean =>
  /dynamically imported module|Importing a module script failed|Loading chunk|error loading dynamically/i.test(
    message,
  );

/** What RouteErrorBoundary shows for a thrown error: never a blank page. */
export function RouteError({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const message = describeError(error ?? 'unknown error');
  const chunk = isChunkFailure(message);
  return (
    <Container size="sm" py={60}>
      <Stack gap="md">
        <Title order={2}>{chunk ? t('routeError.chunk') : t('routeError.title')}</Title>
        {chunk && <Alert color="yellow">{t('routeError.chunkHint')}</Alert>}
        <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {message}
        </Code>
        <Button w="fit-content" onClick={() => window.location.reload()}>
          {t('routeError.reload')}
        </Button>
      </Stack>
    </Container>
  );
}
