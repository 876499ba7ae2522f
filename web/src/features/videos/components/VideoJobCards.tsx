import { Card, Group, Stack, Text } from '@mantine/core';
import type { VideoJobView } from '@switchyard/contract/videos';
import { useTranslation } from 'react-i18next';
import { renderTimestamp } from '../../../lib/format';
import { useVideoQuotaText, VideoProgress, VideoStatusBadge } from './video-labels';

/** Video jobs on phones: one card per job instead of a wide table. */
export function VideoJobCards({ jobs, withUser }: { jobs: VideoJobView[]; withUser: boolean }) {
  const { t } = useTranslation();
  const quotaText = useVideoQuotaText();
  return (
    <Stack gap="sm" data-testid="video-cards">
      {jobs.map((job) => (
        <Card withBorder padding="sm" key={job.id} data-video-id={job.id}>
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Text fw={600} ff="monospace" truncate="end">
              {job.model}
            </Text>
            <VideoStatusBadge job={job} />
          </Group>
          <Group gap="xs" wrap="nowrap" mt="xs">
            <div style={{ flex: 1 }}>
              <VideoProgress job={job} />
            </div>
            <Text size="xs" c="dimmed">
              {job.progress}%
            </Text>
          </Group>
          <Text size="xs" c="dimmed" mt="xs">
            {t('videos.secondsValue', { count: job.seconds })} · {job.size} · {quotaText(job)}
          </Text>
          <Text size="xs" c="dimmed">
            {renderTimestamp(job.createdAt)} · {withUser ? `${job.username} · ` : ''}
            {job.tokenName}
          </Text>
          {job.error && (
            <Text size="xs" c="red" mt={4}>
              {job.error}
            </Text>
          )}
        </Card>
      ))}
    </Stack>
  );
}
