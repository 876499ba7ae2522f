import type { VideoJobRow } from '../../../db/schema';

/** A job as OpenAI's video object; `expired` (ours) reads as failed, with its reason. */
export function videoObject(job: VideoJobRow) {
  const failed = job.status === 'failed' || job.status === 'expired';
  return {
    id: job.id,
    object: 'video',
    model: job.model,
    status: failed ? 'failed' : job.status,
    progress: job.progress,
    created_at: job.created_at,
    completed_at: job.status === 'completed' ? job.finished_at : null,
    expires_at: null,
    seconds: String(job.seconds),
    size: job.size,
    quality: 'standard',
    remixed_from_video_id: null,
    error: failed
      ? { code: job.status === 'expired' ? 'video_expired' : 'video_generation_failed', message: job.error }
      : null,
  };
}
