import { type Env, fail, readInteger } from './env';

export interface ChannelMonitoring {
  /** Period of the background test of every channel (CHANNEL_TEST_FREQUENCY minutes); unset: none. */
  channelTestEveryMs: number | undefined;
  /**
   * The success-rate monitor (ENABLE_METRIC): a channel whose last `queueSize` relayed calls succeeded
   * less often than `successRateThreshold` is disabled. Unset: off.
   */
  channelMetric: { queueSize: number; successRateThreshold: number } | undefined;
}

/** A positive number of minutes, fractions allowed (one-api takes whole minutes only). */
function readMinutes(env: Env, variable: string): number | undefined {
  const raw = env[variable]?.trim();
  if (!raw) return undefined;
  const minutes = Number(raw);
  if (!/^\d*\.?\d+$/.test(raw) || !(minutes > 0) || minutes > 525_600) {
    fail(variable, `expected a number of minutes above 0 (at most a year), got "${raw}"`);
  }
  return Math.max(1000, Math.round(minutes * 60_000));
}

function readRate(env: Env, variable: string, fallback: number): number {
  const raw = env[variable]?.trim();
  if (!raw) return fallback;
  const rate = Number(raw);
  if (!/^\d*\.?\d+$/.test(raw) || rate > 1) fail(variable, `expected a number from 0 to 1, got "${raw}"`);
  return rate;
}

/** CHANNEL_TEST_FREQUENCY, ENABLE_METRIC, METRIC_QUEUE_SIZE and METRIC_SUCCESS_RATE_THRESHOLD, as one-api reads them. */
export function readChannelMonitoring(env: Env): ChannelMonitoring {
  const enabled = env.ENABLE_METRIC?.trim().toLowerCase();
  if (enabled && enabled !== 'true' && enabled !== 'false') {
    fail('ENABLE_METRIC', `expected true or false, got "${env.ENABLE_METRIC}"`);
  }
  const queueSize = readInteger(env, 'METRIC_QUEUE_SIZE', 10, 1, 10_000);
  const successRateThreshold = readRate(env, 'METRIC_SUCCESS_RATE_THRESHOLD', 0.8);
  return {
    channelTestEveryMs: readMinutes(env, 'CHANNEL_TEST_FREQUENCY'),
    channelMetric: enabled === 'true' ? { queueSize, successRateThreshold } : undefined,
  };
}
