import { parseDateTime } from '../../../lib/date-input';
import type { AuditQuery } from '../api/audit-list';

/** The audit filters as typed; times as a datetime-local input shows them, empty for no bound. */
export interface AuditFilterForm {
  actor: string;
  action: string;
  target: string;
  start: string;
  end: string;
}

export const emptyAuditFilter = (): AuditFilterForm => ({
  actor: '',
  action: '',
  target: '',
  start: '',
  end: '',
});

export type AuditFilterError = 'start' | 'end';

/** The query for the filters (empty fields left out), or the time field that is not a date. */
export function toAuditQuery(form: AuditFilterForm): { query: AuditQuery } | { error: AuditFilterError } {
  const query: AuditQuery = {};
  for (const name of ['actor', 'action', 'target'] as const) {
    const value = form[name].trim();
    if (value) query[name] = value;
  }
  for (const [field, name] of [
    ['start', 'start_timestamp'],
    ['end', 'end_timestamp'],
  ] as const) {
    if (!form[field].trim()) continue;
    const seconds = parseDateTime(form[field]);
    if (seconds === null) return { error: field };
    query[name] = Math.max(0, seconds);
  }
  return { query };
}
