import { AUDIT_ACTIONS, AUDIT_SECRET_MARKER } from '@switchyard/contract/audit';
import { describe, expect, it } from 'vitest';
import { enAudit } from '../../../i18n/en/audit';
import { zhAudit } from '../../../i18n/zh/audit';
import { actionKey, fieldChanges, targetText } from './audit-changes';

describe('audit changes', () => {
  it('pairs each field before and after, and shows one side of a creation or removal', () => {
    expect(
      fieldChanges({
        before: { name: 'a', key: AUDIT_SECRET_MARKER },
        after: { name: 'b', key: AUDIT_SECRET_MARKER },
      }),
    ).toEqual([
      { field: 'name', before: 'a', after: 'b' },
      { field: 'key', before: AUDIT_SECRET_MARKER, after: AUDIT_SECRET_MARKER },
    ]);
    expect(fieldChanges({ before: null, after: { role: 1, config: { region: 'x' } } })).toEqual([
      { field: 'role', after: '1' },
      { field: 'config', after: '{"region":"x"}' },
    ]);
    expect(fieldChanges({ before: null, after: null })).toEqual([]);
  });

  it('names actions and targets', () => {
    expect(actionKey('user.manage.promote')).toBe('audit.actions.user_manage_promote');
    expect(targetText({ target_type: 'user', target_id: '3', target_name: 'carol' })).toBe('user #3 carol');
    expect(targetText({ target_type: 'option', target_id: 'SMTPToken', target_name: 'SMTPToken' })).toBe(
      'option SMTPToken',
    );
    expect(targetText({ target_type: '', target_id: '', target_name: '' })).toBe('');
  });

  it('has a label in both languages for every action the server records', () => {
    for (const action of AUDIT_ACTIONS) {
      const key = actionKey(action).replace('audit.actions.', '');
      expect(enAudit.audit.actions, action).toHaveProperty(key);
      expect(zhAudit.audit.actions, action).toHaveProperty(key);
    }
  });
});
