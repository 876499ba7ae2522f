/**
 * Video generation jobs (OpenAI's /v1/videos, Google's Veo): what a job's state is called, how its
 * length and size are checked, and the one pricing rule. The server and the console share them.
 */

/** A job's state as OpenAI names it, plus `expired` (given up on: no answer in time, or gone upstream). */
export const VIDEO_JOB_STATUSES = ['queued', 'in_progress', 'completed', 'failed', 'expired'] as const;
export type VideoJobStatus = (typeof VIDEO_JOB_STATUSES)[number];

/** Quota per second of video at a ratio of 1 (the same as 1K tokens: $0.002 at QuotaPerUnit 500,000). */
const QUOTA_PER_SECOND_AT_RATIO_1 = 1000;

/** Sizes that cost more than the model's base price, per model (OpenAI's list: Sora 2 Pro's larger frame). */
const SIZE_MULTIPLIERS: Record<string, Record<string, number>> = {
  'sora-2-pro': { '1024x1792': 5 / 3, '1792x1024': 5 / 3 },
};

/** The sizes each known model makes; other models take any `WIDTHxHEIGHT`. */
const MODEL_SIZES: Record<string, readonly string[]> = {
  'sora-2': ['720x1280', '1280x720'],
  'sora-2-pro': ['720x1280', '1280x720', '1024x1792', '1792x1024'],
};

/** The lengths (seconds) each family makes. */
const SECONDS_BY_PREFIX: Array<[string, readonly number[]]> = [
  ['sora-', [4, 8, 12]],
  ['veo-3', [4, 6, 8]],
  ['veo-2', [5, 6, 7, 8]],
];
/** The longest video an unknown model is asked for. */
const MAX_SECONDS = 60;

/** Models that make videos (OpenAI's Sora, Google's Veo): priced per second. */
export const isVideoModel = (model: string): boolean => model.startsWith('sora-') || model.startsWith('veo-');

/** A job's length when the request names none: OpenAI's default for Sora, Google's for Veo. */
export const defaultVideoSeconds = (model: string): number => (model.startsWith('veo-') ? 8 : 4);

/** The size when the request names none (portrait 720p, OpenAI's default). */
export const DEFAULT_VIDEO_SIZE = '720x1280';

/** Why a length is refused, or undefined when the model makes it. */
export function videoSecondsProblem(model: string, seconds: number): string | undefined {
  const allowed = SECONDS_BY_PREFIX.find(([prefix]) => model.startsWith(prefix))?.[1];
  if (allowed) {
    return allowed.includes(seconds)
      ? undefined
      : `seconds must be one of ${allowed.join(', ')} for ${model}`;
  }
  return Number.isInteger(seconds) && seconds >= 1 && seconds <= MAX_SECONDS
    ? undefined
    : `seconds must be a whole number from 1 to ${MAX_SECONDS}`;
}

/** Veo's frames: 16:9 or 9:16, at 720p or 1080p. */
export const VEO_SIZES = ['1280x720', '720x1280', '1920x1080', '1080x1920'] as const;

/** Why a size is refused, or undefined when the model makes it. */
export function videoSizeProblem(model: string, size: string): string | undefined {
  const allowed = model.startsWith('veo-') ? VEO_SIZES : MODEL_SIZES[model];
  if (allowed)
    return allowed.includes(size) ? undefined : `size must be one of ${allowed.join(', ')} for ${model}`;
  return /^\d{2,5}x\d{2,5}$/.test(size) ? undefined : 'size must be WIDTHxHEIGHT, such as 1280x720';
}

// Twelve significant digits drop binary noise (50 × 5/3 × 4) before rounding up.
const tidy = (value: number): number => Number(value.toPrecision(12));

/**
 * The one pricing rule of a video: ceil(ratio × size multiplier × seconds × 1000), where ratio is
 * model ratio × group ratio (ModelRatio's video entries are per-second prices: $0.10 a second is 50).
 * At least 1 when the ratio is above 0.
 */
export function videoQuota(ratio: number, model: string, seconds: number, size: string): number {
  const multiplier = SIZE_MULTIPLIERS[model]?.[size] ?? 1;
  const quota = Math.ceil(tidy(ratio * multiplier * seconds * QUOTA_PER_SECOND_AT_RATIO_1));
  return ratio > 0 && quota <= 0 ? 1 : quota;
}

/** A job as the console lists it. */
export interface VideoJobView {
  id: string;
  userId: number;
  /** Set for administrators' lists. */
  username?: string;
  tokenName: string;
  model: string;
  status: VideoJobStatus;
  progress: number;
  seconds: number;
  size: string;
  /** Held while the job runs; what it was charged once completed; 0 once refunded. */
  quota: number;
  createdAt: number;
  finishedAt: number;
  /** The provider's reason when it failed, or why it expired. */
  error: string;
}
