import { Alert, Box, Button, Group, Modal, Paper, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../../lib/api-client';
import { renderMarkdown } from '../../../lib/markdown';
import { useServerStatus } from '../../../lib/server-status';
import { StorageKey, writeItem } from '../../../lib/storage';
import { showError, showSuccess } from '../../../lib/toast';
import { DEFAULT_RELEASES_URL, type Release, releasesUrl, useCheckUpdate } from '../api/update-check';

/** Compare the server's version with the latest release: a dialog with its notes, or "already latest". */
export function UpdateCheck() {
  const { t } = useTranslation();
  const status = useServerStatus();
  const check = useCheckUpdate();
  const [url, setUrl] = useState(releasesUrl);
  const [release, setRelease] = useState<Release | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const current = status?.version ?? '';

  const run = () => {
    const target = url.trim() || DEFAULT_RELEASES_URL;
    // An address other than the built-in one is remembered in this browser.
    writeItem(StorageKey.releasesUrl, target === DEFAULT_RELEASES_URL ? null : target);
    setFailure(null);
    check.mutate(target, {
      onSuccess: (latest) => {
        if (latest.tag_name === current)
          showSuccess(t('settings.update.latest', { version: latest.tag_name }));
        else setRelease(latest);
      },
      onError: (error) => {
        const message = t('settings.update.failed', { message: describeError(error) });
        setFailure(message);
        showError(message);
      },
    });
  };

  return (
    <Paper withBorder p={{ base: 'sm', sm: 'md' }} data-testid="update-check">
      <Title order={3} fz="h4">
        {t('settings.update.title')}
      </Title>
      <Text size="sm" c="dimmed" mt={4}>
        {t('settings.update.current', { version: current || '—' })}
      </Text>
      <Group mt="md" align="flex-end" gap="sm">
        <TextInput
          name="releases_url"
          label={t('settings.update.url')}
          description={t('settings.update.urlHint')}
          value={url}
          onChange={(event) => setUrl(event.currentTarget.value)}
          style={{ flex: '1 1 320px' }}
        />
        <Button onClick={run} loading={check.isPending}>
          {t('settings.update.button')}
        </Button>
      </Group>
      {failure && (
        <Alert color="red" mt="md" title={t('settings.update.failedTitle')} data-testid="update-failure">
          {failure}
        </Alert>
      )}
      <Modal
        opened={release !== null}
        onClose={() => setRelease(null)}
        title={t('settings.update.newVersion', { version: release?.tag_name ?? '' })}
        size="lg"
        centered
      >
        <Box
          className="rich-content"
          data-testid="release-notes"
          // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by DOMPurify in renderMarkdown
          dangerouslySetInnerHTML={{ __html: renderMarkdown(release?.body || t('settings.update.noNotes')) }}
        />
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={() => setRelease(null)}>
            {t('settings.update.close')}
          </Button>
          {release?.html_url && (
            <Button component="a" href={release.html_url} target="_blank" rel="noreferrer">
              {t('settings.update.details')}
            </Button>
          )}
        </Group>
      </Modal>
    </Paper>
  );
}
