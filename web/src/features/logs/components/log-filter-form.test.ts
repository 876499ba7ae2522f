import { describe, expect, it } from 'vitest';
import { defaultLogFilter, toDateTimeInput, toLogQuery } from './log-filter-form';

describe('log filters', () => {
  it('default to everything from the epoch to one hour from now', () => {
    const now = 1_700_000_000;
    const form = defaultLogFilter(now);
    const result = toLogQuery(form, false);
    expect(result).toEqual({
      query: { type: 0, token_name: '', model_name: '', start_timestamp: 0, end_timestamp: now + 3600 },
    });
  });

  it('send the trimmed names and the chosen type; admins add channel and username', () => {
    const form = {
      ...defaultLogFilter(1_700_000_000),
      type: 2,
      tokenName: ' ci ',
      modelName: ' gpt-4o ',
      channel: ' 7 ',
      username: ' alice ',
      start: toDateTimeInput(1_699_000_000),
    };
    expect(toLogQuery(form, true)).toEqual({
      query: {
        type: 2,
        token_name: 'ci',
        model_name: 'gpt-4o',
        start_timestamp: 1_699_000_000,
        end_timestamp: 1_700_003_600,
        username: 'alice',
        channel: 7,
      },
    });
    const own = toLogQuery(form, false);
    expect(own).not.toHaveProperty('query.username');
    expect(own).not.toHaveProperty('query.channel');
  });

  it('accept minutes without seconds and treat an empty time as unbounded', () => {
    const form = { ...defaultLogFilter(), start: '', end: '2024-05-01T10:30' };
    const result = toLogQuery(form, false);
    expect(result).toMatchObject({ query: { start_timestamp: 0 } });
    expect('query' in result && result.query.end_timestamp).toBe(toSeconds('2024-05-01T10:30:00'));
  });

  it('name the field that cannot be read', () => {
    expect(toLogQuery({ ...defaultLogFilter(), start: 'yesterday' }, false)).toEqual({ error: 'start' });
    expect(toLogQuery({ ...defaultLogFilter(), end: '2024-13-01T00:00' }, false)).toEqual({ error: 'end' });
    expect(toLogQuery({ ...defaultLogFilter(), channel: 'abc' }, true)).toEqual({ error: 'channel' });
    expect(toLogQuery({ ...defaultLogFilter(), channel: 'abc' }, false)).toHaveProperty('query');
  });
});

function toSeconds(local: string): number {
  return Math.floor(new Date(local).getTime() / 1000);
}
