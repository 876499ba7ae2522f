import { describe, expect, it } from 'vitest';
import { parseDateTime } from '../../../lib/date-input';
import { emptyAuditFilter, toAuditQuery } from './audit-filter-form';

describe('audit filters', () => {
  it('sends only the fields given, trimmed', () => {
    expect(toAuditQuery(emptyAuditFilter())).toEqual({ query: {} });
    expect(toAuditQuery({ ...emptyAuditFilter(), actor: ' root ', action: 'user.' })).toEqual({
      query: { actor: 'root', action: 'user.' },
    });
  });

  it('turns the times into Unix seconds, and names a time that is not one', () => {
    const form = { ...emptyAuditFilter(), start: '2026-11-01T00:00:00', end: '2026-11-02 12:30' };
    expect(toAuditQuery(form)).toEqual({
      query: {
        start_timestamp: parseDateTime('2026-11-01 00:00:00'),
        end_timestamp: parseDateTime('2026-11-02 12:30'),
      },
    });
    expect(toAuditQuery({ ...emptyAuditFilter(), end: 'yesterday' })).toEqual({ error: 'end' });
  });
});
