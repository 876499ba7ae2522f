import { describe, expect, it } from 'vitest';
import { changedOptions, displayValue, optionProblem } from './option-draft';

describe('option drafts', () => {
  it('show ratio JSON pretty-printed and secrets empty', () => {
    expect(displayValue('GroupRatio', '{"default":1}')).toBe('{\n  "default": 1\n}');
    expect(displayValue('SMTPToken', undefined)).toBe('');
    expect(displayValue('SystemName', undefined)).toBe('Switchyard');
    expect(displayValue('ModelRatio', 'not json')).toBe('not json');
  });

  it('save only what changed', () => {
    const shown = { SystemName: 'Gate', Logo: '', RetryTimes: '0' };
    expect(
      changedOptions(['SystemName', 'Logo', 'RetryTimes'], { ...shown, Logo: 'https://x/logo.png' }, shown),
    ).toEqual([{ key: 'Logo', value: 'https://x/logo.png' }]);
    expect(changedOptions(['SystemName', 'Logo'], shown, shown)).toEqual([]);
  });

  it('save secrets only when typed', () => {
    const shown = { SMTPServer: 'smtp.example.com', SMTPToken: '' };
    expect(changedOptions(['SMTPServer', 'SMTPToken'], shown, shown)).toEqual([]);
    expect(changedOptions(['SMTPToken'], { SMTPToken: ' s3cret ' }, shown)).toEqual([
      { key: 'SMTPToken', value: 's3cret' },
    ]);
  });

  it('compare addresses without their trailing slash', () => {
    const shown = { ServerAddress: 'https://gw.example.com' };
    expect(changedOptions(['ServerAddress'], { ServerAddress: 'https://gw.example.com/' }, shown)).toEqual(
      [],
    );
  });

  it('classify what the shared check refuses', () => {
    expect(optionProblem('ModelRatio', '{"gpt-4": 15}')).toBeNull();
    expect(optionProblem('ModelRatio', '{oops')).toEqual({ kind: 'json', key: 'ModelRatio' });
    expect(optionProblem('GroupRatio', '{"vip": -1}')).toEqual({ kind: 'ratios', key: 'GroupRatio' });
    expect(optionProblem('RetryTimes', '1.5')).toEqual({ kind: 'integer', key: 'RetryTimes' });
    expect(optionProblem('QuotaPerUnit', '-2')).toEqual({ kind: 'number', key: 'QuotaPerUnit' });
    expect(optionProblem('QuotaPerUnit', '0.01')).toBeNull();
    expect(optionProblem('Theme', 'dark')).toMatchObject({ kind: 'other', key: 'Theme' });
  });
});
