import type { VideoJobs } from '../relay/pipeline/video-jobs';

/**
 * Looks at unfinished video jobs every VIDEO_POLL_INTERVAL seconds, so that a job is charged (or
 * refunded, or expired) even when its client never asks again. Every process of a cluster may run
 * it: a job's billing moves once whoever sees it end first (VideoJobs claims it).
 */
export class VideoPoller {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;

  constructor(
    private readonly deps: {
      videoJobs: VideoJobs;
      everySeconds: number;
      onError?: (error: unknown) => void;
    },
  ) {}

  start(): void {
    this.#timer = setInterval(() => {
      this.#running ??= this.deps.videoJobs
        .sweep(this.deps.everySeconds)
        .catch((error: unknown) => this.deps.onError?.(error))
        .finally(() => {
          this.#running = undefined;
        });
    }, this.deps.everySeconds * 1000);
    this.#timer.unref();
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.#running;
  }
}
