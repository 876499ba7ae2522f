import { describe, expect, it } from 'vitest';
import { resolveModelRatio } from './model-ratios';
import { defaultVideoSeconds, videoQuota, videoSecondsProblem, videoSizeProblem } from './videos';

describe('video prices', () => {
  it('are per-second list prices: ratio × size multiplier × seconds × 1000', () => {
    expect(videoQuota(resolveModelRatio('sora-2'), 'sora-2', 4, '720x1280')).toBe(200_000);
    // $0.30 a second, $0.50 at the larger frame, 12 s: $6 = 3,000,000 quota.
    expect(videoQuota(resolveModelRatio('sora-2-pro'), 'sora-2-pro', 12, '1792x1024')).toBe(3_000_000);
    expect(videoQuota(resolveModelRatio('sora-2-pro'), 'sora-2-pro', 4, '1280x720')).toBe(600_000);
    expect(videoQuota(resolveModelRatio('veo-3.0-generate-001'), 'veo-3.0-generate-001', 8, '1280x720')).toBe(
      1_600_000,
    );
    expect(
      videoQuota(resolveModelRatio('veo-3.0-fast-generate-001'), 'veo-3.0-fast-generate-001', 8, '1920x1080'),
    ).toBe(600_000);
    expect(videoQuota(resolveModelRatio('veo-2.0-generate-001'), 'veo-2.0-generate-001', 5, '1280x720')).toBe(
      875_000,
    );
    // A group ratio of 0.1 still charges at least 1; a free model nothing.
    expect(videoQuota(0.000_001, 'sora-2', 4, '720x1280')).toBe(1);
    expect(videoQuota(0, 'sora-2', 4, '720x1280')).toBe(0);
  });

  it('checks lengths and sizes by model family', () => {
    expect(videoSecondsProblem('sora-2', 8)).toBeUndefined();
    expect(videoSecondsProblem('sora-2', 5)).toMatch(/4, 8, 12/);
    expect(videoSecondsProblem('veo-3.0-generate-001', 6)).toBeUndefined();
    expect(videoSecondsProblem('veo-2.0-generate-001', 4)).toMatch(/5, 6, 7, 8/);
    expect(videoSecondsProblem('some-video', 61)).toMatch(/1 to 60/);
    expect(videoSecondsProblem('some-video', 2.5)).toBeDefined();
    expect(videoSizeProblem('sora-2', '1792x1024')).toMatch(/720x1280, 1280x720/);
    expect(videoSizeProblem('veo-3.0-generate-001', '1080x1920')).toBeUndefined();
    expect(videoSizeProblem('some-video', '1280x720;')).toBeDefined();
    expect([defaultVideoSeconds('sora-2'), defaultVideoSeconds('veo-2.0-generate-001')]).toEqual([4, 8]);
  });
});
