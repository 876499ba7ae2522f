import { describe, expect, it } from 'vitest';
import { DAY, HOUR, summarizeLogs } from '../../src/db/repos/log-summaries/buckets';

const at = 20 * DAY + 5 * HOUR + 17;
const log = (userId: number, quota: number, time = at, model = 'gpt-4o') => ({
  created_at: time,
  type: 2,
  user_id: userId,
  username: `user${userId}`,
  token_name: 'key',
  model_name: model,
  channel_id: 3,
  quota,
});

describe('summarizeLogs', () => {
  it('folds logs of one key into one row per table, with their quota and count', () => {
    expect(summarizeLogs([log(1, 5), log(1, 7), log(1, 1)])).toEqual({
      hourly: [
        {
          bucket: 20 * DAY + 5 * HOUR,
          type: 2,
          user_id: 1,
          username: 'user1',
          token_name: 'key',
          model_name: 'gpt-4o',
          channel_id: 3,
          quota: 13,
          log_count: 3,
        },
      ],
      daily: [{ bucket: 20 * DAY, type: 2, model_name: 'gpt-4o', channel_id: 3, quota: 13, log_count: 3 }],
    });
  });

  it('keeps a row per distinct key, sorted by key whatever order the logs came in (the lock order)', () => {
    const { hourly, daily } = summarizeLogs([
      log(2, 1, at + HOUR),
      log(1, 2, at, 'o3'),
      log(2, 4),
      log(1, 8),
      log(2, 16, at + HOUR),
      log(1, 32, at + 2 * DAY),
    ]);
    expect(
      hourly.map((row) => [row.bucket - 20 * DAY, row.user_id, row.model_name, row.quota, row.log_count]),
    ).toEqual([
      [5 * HOUR, 1, 'gpt-4o', 8, 1],
      [5 * HOUR, 1, 'o3', 2, 1],
      [5 * HOUR, 2, 'gpt-4o', 4, 1],
      [6 * HOUR, 2, 'gpt-4o', 17, 2],
      [2 * DAY + 5 * HOUR, 1, 'gpt-4o', 32, 1],
    ]);
    expect(daily.map((row) => [row.bucket / DAY, row.model_name, row.quota, row.log_count])).toEqual([
      [20, 'gpt-4o', 29, 4],
      [20, 'o3', 2, 1],
      [22, 'gpt-4o', 32, 1],
    ]);
  });

  it("adds a key's logs to one row when their run is broken and resumed", () => {
    const { hourly, daily } = summarizeLogs([
      log(1, 1),
      log(1, 2),
      log(2, 4),
      log(1, 8, at, 'o3'),
      log(1, 16),
    ]);
    expect(hourly.map((row) => [row.user_id, row.model_name, row.quota, row.log_count])).toEqual([
      [1, 'gpt-4o', 19, 3],
      [1, 'o3', 8, 1],
      [2, 'gpt-4o', 4, 1],
    ]);
    expect(daily.map((row) => [row.model_name, row.quota, row.log_count])).toEqual([
      ['gpt-4o', 23, 4],
      ['o3', 8, 1],
    ]);
  });

  it('leaves out a log without a time (a row another program wrote)', () => {
    const untimed = { ...log(1, 5), created_at: null as unknown as number };
    expect(summarizeLogs([untimed])).toEqual({ hourly: [], daily: [] });
  });
});
