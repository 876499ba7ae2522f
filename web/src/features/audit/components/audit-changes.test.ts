import { AUDIT_ACTIONS, AUDIT_SECRET_MARKER } from '@switchyard/contract/audit';
import { describe, expect, it } from 'vitest';
import { enAudit } from '../../../i18n/en/audit';
import { i18n } from '../../../i18n/i18n';
import { zhAudit } from '../../../i18n/zh/audit';
import { ALL_FIELD_LABEL_KEYS, actionKey, fieldChanges, fieldLabel, targetText } from './audit-changes';

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

  it("names actions, and targets and fields in the console's words of each language", async () => {
    expect(actionKey('user.manage.promote')).toBe('audit.actions.user_manage_promote');
    for (const [language, user, option, remaining, expiry] of [
      ['en', 'user #3 carol', 'setting Chat page link', 'Quota', 'Expiry time'],
      ['zh', '用户 #3 carol', '设置 聊天页面链接', '额度', '过期时间'],
    ] as const) {
      await i18n.changeLanguage(language);
      const t = i18n.t.bind(i18n) as (key: string) => string;
      const exists = (key: string) => i18n.exists(key);
      expect(targetText({ target_type: 'user', target_id: '3', target_name: 'carol' }, t, exists)).toBe(user);
      expect(
        targetText({ target_type: 'option', target_id: 'ChatLink', target_name: 'ChatLink' }, t, exists),
      ).toBe(option);
      expect(targetText({ target_type: '', target_id: '', target_name: '' }, t, exists)).toBe('');
      expect(fieldLabel('token', 'remain_quota', t, exists)).toBe(remaining);
      expect(fieldLabel('token', 'expired_time', t, exists)).toBe(expiry);
      // A field the console has no label for keeps its name.
      expect(fieldLabel('token', 'no_such_field', t, exists)).toBe('no_such_field');
    }
  });

  it('labels every audited field with a key that exists in both languages', () => {
    for (const key of ALL_FIELD_LABEL_KEYS) {
      expect(i18n.exists(key, { lng: 'en' }), key).toBe(true);
      expect(i18n.exists(key, { lng: 'zh' }), key).toBe(true);
    }
  });

  it('has a label in both languages for every action the server records', () => {
    for (const action of AUDIT_ACTIONS) {
      const key = actionKey(action).replace('audit.actions.', '');
      expect(enAudit.audit.actions, action).toHaveProperty(key);
      expect(zhAudit.audit.actions, action).toHaveProperty(key);
    }
  });
});
