import { ITEMS_PER_PAGE } from '@switchyard/contract/envelope';
import type { VideoJobPage, VideoJobStatus, VideoJobView } from '@switchyard/contract/videos';
import type { Sql } from '../db/connect';
import { countVideoJobs, listVideoJobs } from '../db/repos/video-jobs';
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

  async page(viewer: { own: number } | { all: true }, page: number): Promise<VideoJobPage> {
    const userId = 'own' in viewer ? viewer.own : undefined;
    const [rows, total] = await Promise.all([
      listVideoJobs(this.db, { userId, order: 'desc', limit: ITEMS_PER_PAGE, offset: page * ITEMS_PER_PAGE }),
      countVideoJobs(this.db, userId),
    ]);
    return { items: rows.map((row) => viewOf(row, userId === undefined)), total };
  }
}
