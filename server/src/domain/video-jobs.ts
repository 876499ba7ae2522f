import { ITEMS_PER_PAGE } from '@switchyard/contract/envelope';
import type { VideoJobStatus, VideoJobView } from '@switchyard/contract/videos';
import type { Sql } from '../db/connect';
import { listVideoJobs } from '../db/repos/video-jobs';
import type { VideoJobRow } from '../db/schema';

const viewOf = (job: VideoJobRow, withUser: boolean): VideoJobView => ({
  id: job.id,
  userId: job.user_id,
  ...(withUser ? { username: job.username } : {}),
  tokenName: job.token_name,
  model: job.model,
  status: job.status as VideoJobStatus,
  progress: job.progress,
  seconds: job.seconds,
  size: job.size,
  quota: job.quota,
  createdAt: job.created_at,
  finishedAt: job.finished_at,
  error: job.error,
});

/** The console's lists of video jobs: a user's own, or (administrators) everyone's with the user. */
export class VideoJobList {
  constructor(private readonly db: Sql) {}

  /** One page of ITEMS_PER_PAGE jobs, newest first. */
  async page(viewer: { own: number } | { all: true }, page: number): Promise<VideoJobView[]> {
    const userId = 'own' in viewer ? viewer.own : undefined;
    const offset = page * ITEMS_PER_PAGE;
    const rows = await listVideoJobs(this.db, { userId, order: 'desc', limit: ITEMS_PER_PAGE, offset });
    return rows.map((row) => viewOf(row, userId === undefined));
  }
}
