import { createChannelInput } from '@switchyard/contract/channels';
import { createTokenInput } from '@switchyard/contract/tokens';
import { registerInput } from '@switchyard/contract/users';
import { afterAll, describe, expect, it } from 'vitest';
import { i18n } from '../i18n/i18n';
import { fieldErrors, issueMessage, USER_MESSAGES } from './validation';

const t = i18n.t.bind(i18n);
const issuesOf = (result: { error?: { issues: Parameters<typeof fieldErrors>[0] } }) =>
  result.error?.issues ?? [];

afterAll(async () => {
  await i18n.changeLanguage('en');
});

describe.each([
  {
    language: 'en',
    required: 'Please fill in this field.',
    tooLong: 'Please enter at most 32 characters.',
    tooSmall: 'Please enter a number of at least 0.',
    url: 'Please enter an address starting with http:// or https:// followed by a host name.',
    cidr: '"nonsense" is not a valid CIDR block such as 192.168.1.0/24 or 2001:db8::/32.',
    invalid: 'Please check this field.',
    passwordTooShort: 'Password length must not be less than 8',
    channelName: 'Please fill in the channel name and channel key!',
  },
  {
    language: 'zh',
    required: '请填写此项。',
    tooLong: '最多 32 个字符。',
    tooSmall: '请输入不小于 0 的数。',
    url: '请输入以 http:// 或 https:// 开头并带有主机名的地址。',
    cidr: '“nonsense”不是有效的网段，应形如 192.168.1.0/24 或 2001:db8::/32。',
    invalid: '请检查此项。',
    passwordTooShort: '密码长度不得小于 8 位！',
    channelName: '请填写渠道名称和渠道密钥！',
  },
])('a zod issue in $language', (expected) => {
  it('reads as the generic message of its rule, with the limits of the issue', async () => {
    await i18n.changeLanguage(expected.language);
    const message = (issue: Parameters<typeof issueMessage>[0]) => issueMessage(issue, t);
    expect(message({ path: ['name'], code: 'too_small', origin: 'string', minimum: 1 })).toBe(
      expected.required,
    );
    expect(message({ path: ['models'], code: 'too_small', origin: 'array', minimum: 1 })).toBe(
      expected.required,
    );
    expect(message({ path: ['group'], code: 'too_big', origin: 'string', maximum: 32 })).toBe(
      expected.tooLong,
    );
    expect(message({ path: ['quota'], code: 'too_small', origin: 'number', minimum: 0 })).toBe(
      expected.tooSmall,
    );
    expect(message({ path: ['base_url'], code: 'custom', params: { rule: 'url' } })).toBe(expected.url);
    expect(message({ path: ['subnet'], code: 'custom', params: { rule: 'cidr', entry: 'nonsense' } })).toBe(
      expected.cidr,
    );
    expect(message({ path: ['quota'], code: 'invalid_type' })).toBe(expected.invalid);
    expect(message({ path: ['priority'], code: 'custom' })).toBe(expected.invalid);
  });

  it("prefers a form's own wording for the field and rule, and keeps the first issue of each field", async () => {
    await i18n.changeLanguage(expected.language);
    const channel = createChannelInput.safeParse({
      type: 1,
      name: '',
      key: '',
      models: 'gpt-4o',
      base_url: 'x',
    });
    expect(fieldErrors(issuesOf(channel), t, ['channels.form.errors'])).toEqual({
      name: expected.channelName,
      key: expected.channelName,
      base_url: t('channels.form.errors.base_url.url'),
    });
    const register = registerInput.safeParse({ username: 'carol', password: 'short' });
    expect(fieldErrors(issuesOf(register), t, USER_MESSAGES)).toEqual({
      password: expected.passwordTooShort,
    });
    const token = createTokenInput.safeParse({ name: 'ci', subnet: 'nonsense' });
    expect(fieldErrors(issuesOf(token), t, ['tokens.form.errors'])).toEqual({ subnet: expected.cidr });
  });
});
