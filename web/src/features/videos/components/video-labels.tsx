import { Badge, Progress } from '@mantine/core';
import type { VideoJobStatus, VideoJobView } from '@switchyard/contract/videos';
import { useTranslation } from 'react-i18next';
import { renderLogQuota } from '../../../lib/format';

const STATUS_COLORS: Record<VideoJobStatus, string> = {
  queued: 'gray',
  in_progress: 'blue',
  completed: 'green',
  failed: 'red',
  expired: 'orange',
};

export function VideoStatusBadge({ job }: { job: VideoJobView }) {
  const { t } = useTranslation();
  return (
    <Badge variant="light" color={STATUS_COLORS[job.status] ?? 'gray'} title={job.error || undefined}>
      {t(`videos.status.${job.status}`, { defaultValue: job.status })}
    </Badge>
  );
}

export function VideoProgress({ job }: { job: VideoJobView }) {
  return (
    <Progress
      value={job.progress}
      size="sm"
      miw={80}
      aria-label={`${job.progress}%`}
      color={job.status === 'completed' ? 'green' : 'blue'}
    />
  );
}

/** What the job costs: held while it runs, charged once completed, nothing once given back. */
export function useVideoQuotaText(): (job: VideoJobView) => string {
  const { t } = useTranslation();
  return (job) => {
    const amount = renderLogQuota(job.quota);
    return job.status === 'queued' || job.status === 'in_progress'
      ? t('videos.quotaHeld', { amount })
      : amount;
  };
}
