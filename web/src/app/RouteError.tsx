import { Alert, Button, Code, Container, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { describeError } from '../lib/api-client';

const isChunkFailure = (message: string): boolean =>
  /dynamically imported module|Importing a module script failed|Loading chunk|error loading dynamically/i.test(
    message,
  );

/** The router's error element: a thrown error never leaves a blank page. */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : describeError(error ?? 'unknown error');
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
