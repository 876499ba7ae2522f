import type { AuditEntry } from '@switchyard/contract/audit';

/** One changed field: its value before and after (undefined when that side has none). */
export interface FieldChange {
  field: string;
  before?: string;
  after?: string;
}

const shown = (value: unknown): string =>
  value === null ? 'null' : typeof value === 'string' ? value : JSON.stringify(value);

/** The fields an entry changed, in a stable order: those of `before` first, then any only in `after`. */
export function fieldChanges(entry: Pick<AuditEntry, 'before' | 'after'>): FieldChange[] {
  const before = entry.before ?? {};
  const after = entry.after ?? {};
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return fields.map((field) => ({
    field,
    ...(field in before ? { before: shown(before[field]) } : {}),
    ...(field in after ? { after: shown(after[field]) } : {}),
  }));
}

/** The i18n key of an action (`user.manage.promote` → `audit.actions.user_manage_promote`). */
export const actionKey = (action: string): string => `audit.actions.${action.replaceAll('.', '_')}`;

/** How an entry names its target: `user #3 carol`, `option SMTPToken`, or nothing. */
export function targetText(entry: Pick<AuditEntry, 'target_type' | 'target_id' | 'target_name'>): string {
  const id = entry.target_id && entry.target_id !== entry.target_name ? ` #${entry.target_id}` : '';
  const name = entry.target_name ? ` ${entry.target_name}` : '';
  return `${entry.target_type}${id}${name}`.trim();
}
