import { describe, expect, it } from 'vitest';
import { ERROR_MESSAGES } from './error-messages';
import { fieldRefusal } from './issue-rules';
import { type ErrorCode, preferredLanguage, renderError } from './render-error';

const placeholders = (template: string) =>
  [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

describe('the error catalogue', () => {
  const entries = Object.entries(ERROR_MESSAGES) as Array<[ErrorCode, { en: string; zh: string }]>;

  it.each(entries)('words %s in both languages with the same placeholders', (_code, { en, zh }) => {
    expect(en.trim()).not.toBe('');
    expect(zh.trim()).not.toBe('');
    expect(placeholders(zh)).toEqual(placeholders(en));
  });

  it('names codes in snake case', () => {
    for (const [code] of entries) expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/);
  });
});

describe('renderError', () => {
  it('fills the named params in the language asked for, English by default', () => {
    expect(renderError('user_group_unknown', { group: 'vip' })).toBe(
      'Group "vip" does not exist; add it to the group ratios first',
    );
    expect(renderError('user_group_unknown', { group: 'vip' }, 'zh')).toBe(
      '分组“vip”不存在，请先在分组倍率中添加',
    );
    expect(renderError('range_too_long', { days: 30 }, 'zh')).toBe('时间范围最多 30 天');
  });

  it('leaves a placeholder without its param as written', () => {
    expect(renderError('option_unknown', {}, 'en')).toBe('Unknown option "{key}"');
  });
});

describe('preferredLanguage', () => {
  it.each([
    [undefined, 'en'],
    ['', 'en'],
    ['zh-CN', 'zh'],
    ['zh-CN,zh;q=0.9,en;q=0.8', 'zh'],
    ['en-US,en;q=0.9,zh-CN;q=0.8', 'en'],
    ['fr, de;q=0.9, zh;q=0.5', 'zh'],
    ['en;q=0.4, zh-TW;q=0.6', 'zh'],
    ['zh;q=0, en;q=0.1', 'en'],
    ['ja', 'en'],
  ] as const)('%s reads as %s', (header, language) => {
    expect(preferredLanguage(header)).toBe(language);
  });
});

describe('fieldRefusal', () => {
  it('codes a zod issue by its rule, with the field path and its limits', () => {
    expect(fieldRefusal({ path: ['name'], code: 'too_small', origin: 'string', minimum: 1 })).toEqual({
      code: 'field_required',
      params: { field: 'name', min: 1 },
    });
    expect(fieldRefusal({ path: ['models', 0], code: 'too_big', origin: 'string', maximum: 64 })).toEqual({
      code: 'field_too_long',
      params: { field: 'models.0', max: 64 },
    });
    expect(fieldRefusal({ path: ['priority'], code: 'too_small', origin: 'number', minimum: 0 })).toEqual({
      code: 'field_too_small',
      params: { field: 'priority', min: 0 },
    });
    expect(
      fieldRefusal({ path: ['subnet'], code: 'custom', params: { rule: 'cidr', entry: '300.1.1.1/24' } }),
    ).toEqual({ code: 'field_cidr', params: { field: 'subnet', entry: '300.1.1.1/24' } });
    expect(fieldRefusal({ path: ['id'], code: 'invalid_type' })).toEqual({
      code: 'field_invalid',
      params: { field: 'id' },
    });
  });
});
