import { describe, expect, it } from 'vitest';
import { readChannelMonitoring } from './channel-monitoring';

describe('channel monitoring settings', () => {
  it('are off by default, with one-api’s defaults for the monitor', () => {
    expect(readChannelMonitoring({})).toEqual({ channelTestEveryMs: undefined, channelMetric: undefined });
    expect(readChannelMonitoring({ ENABLE_METRIC: 'true' }).channelMetric).toEqual({
      queueSize: 10,
      successRateThreshold: 0.8,
    });
  });

  it('reads CHANNEL_TEST_FREQUENCY in minutes, as one-api does, fractions allowed', () => {
    expect(readChannelMonitoring({ CHANNEL_TEST_FREQUENCY: '10' }).channelTestEveryMs).toBe(600_000);
    expect(readChannelMonitoring({ CHANNEL_TEST_FREQUENCY: '0.5' }).channelTestEveryMs).toBe(30_000);
    expect(
      readChannelMonitoring({
        ENABLE_METRIC: 'TRUE',
        METRIC_QUEUE_SIZE: '3',
        METRIC_SUCCESS_RATE_THRESHOLD: '.5',
      }).channelMetric,
    ).toEqual({ queueSize: 3, successRateThreshold: 0.5 });
  });

  it.each([
    [{ CHANNEL_TEST_FREQUENCY: '0' }, /^CHANNEL_TEST_FREQUENCY: /],
    [{ CHANNEL_TEST_FREQUENCY: 'hourly' }, /^CHANNEL_TEST_FREQUENCY: /],
    [{ ENABLE_METRIC: 'yes' }, /^ENABLE_METRIC: /],
    [{ METRIC_QUEUE_SIZE: '0' }, /^METRIC_QUEUE_SIZE: /],
    [{ METRIC_SUCCESS_RATE_THRESHOLD: '1.5' }, /^METRIC_SUCCESS_RATE_THRESHOLD: /],
    [{ METRIC_SUCCESS_RATE_THRESHOLD: '-0.1' }, /^METRIC_SUCCESS_RATE_THRESHOLD: /],
  ])('refuses %o', (env, message) => {
    expect(() => readChannelMonitoring(env)).toThrow(message);
  });
});
