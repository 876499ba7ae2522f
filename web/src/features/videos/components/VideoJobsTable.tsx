import { Group, Table, Text } from '@mantine/core';
import type { VideoJobView } from '@switchyard/contract/videos';
import { useTranslation } from 'react-i18next';
import { ListTable } from '../../../components/ListTable';
import { renderTimestamp } from '../../../lib/format';
import { useVideoQuotaText, VideoProgress, VideoStatusBadge } from './video-labels';

export function VideoJobsTable({ jobs, withUser }: { jobs: VideoJobView[]; withUser: boolean }) {
  const { t } = useTranslation();
  const quotaText = useVideoQuotaText();
  const columns = [
    'created',
    ...(withUser ? ['user'] : []),
    'token',
    'model',
    'status',
    'progress',
    'seconds',
    'size',
    'quota',
  ];
  return (
    <ListTable
      miw={withUser ? 1000 : 900}
      testId="video-table"
      headers={columns.map((c) => t(`videos.columns.${c}`))}
    >
      {jobs.map((job) => (
        <Table.Tr key={job.id} data-video-id={job.id}>
          <Table.Td style={{ whiteSpace: 'nowrap' }}>{renderTimestamp(job.createdAt)}</Table.Td>
          {withUser && <Table.Td>{job.username}</Table.Td>}
          <Table.Td>{job.tokenName}</Table.Td>
          <Table.Td ff="monospace">{job.model}</Table.Td>
          <Table.Td>
            <VideoStatusBadge job={job} />
          </Table.Td>
          <Table.Td>
            <Group gap="xs" wrap="nowrap">
              <VideoProgress job={job} />
              <Text size="xs" c="dimmed">
                {job.progress}%
              </Text>
            </Group>
          </Table.Td>
          <Table.Td>{t('videos.secondsValue', { count: job.seconds })}</Table.Td>
          <Table.Td ff="monospace">{job.size}</Table.Td>
          <Table.Td style={{ whiteSpace: 'nowrap' }}>{quotaText(job)}</Table.Td>
        </Table.Tr>
      ))}
    </ListTable>
  );
}
