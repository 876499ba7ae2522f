import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { parseDateTime } from './date-input';

describe('date-time fields', () => {
  it('read the format the tables show, as local time', () => {
    expect(parseDateTime('2031-02-03 04:05:06')).toBe(dayjs('2031-02-03T04:05:06').unix());
    expect(parseDateTime(' 2031-02-03 04:05 ')).toBe(dayjs('2031-02-03T04:05:00').unix());
    expect(parseDateTime('2031-02-03')).toBe(dayjs('2031-02-03T00:00:00').unix());
  });

  it('refuse text that is not a real date', () => {
    for (const text of ['', 'tomorrow', '2031-13-01 00:00:00', '2031-02-30', '12345']) {
      expect(parseDateTime(text), text).toBeNull();
    }
  });
});
