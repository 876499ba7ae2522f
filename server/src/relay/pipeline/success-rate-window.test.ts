import { describe, expect, it } from 'vitest';
import { SuccessRateWindow } from './success-rate-window';

describe('SuccessRateWindow', () => {
  it('trips only once the window is full and under the threshold, then starts over', () => {
    const window = new SuccessRateWindow({ queueSize: 4, successRateThreshold: 0.5 });
    // Not full: three failures in a row say nothing yet.
    expect([window.failed(1), window.failed(1), window.failed(1)]).toEqual([undefined, undefined, undefined]);
    expect(window.failed(1)).toBe(0);
    // Started over: the old failures are forgotten.
    window.succeeded(1);
    window.succeeded(1);
    expect(window.failed(1)).toBeUndefined();
    expect(window.failed(1)).toBeUndefined(); // 2 of 4: not under 50 %
    expect(window.failed(1)).toBe(0.25); // the oldest success left the window
  });

  it('keeps each channel’s window apart and forgets outcomes older than the window', () => {
    const window = new SuccessRateWindow({ queueSize: 3, successRateThreshold: 0.8 });
    window.failed(7);
    window.failed(7);
    window.succeeded(8);
    window.succeeded(8);
    expect(window.failed(8)).toBeCloseTo(2 / 3);
    // Two failures, then three successes: the failures rolled out of the window.
    const fresh = new SuccessRateWindow({ queueSize: 3, successRateThreshold: 0.5 });
    fresh.failed(7);
    fresh.failed(7);
    fresh.succeeded(7);
    fresh.succeeded(7);
    fresh.succeeded(7);
    expect(fresh.failed(7)).toBeUndefined(); // 2 of 3
  });
});
