import { describe, expect, it } from 'vitest';
import {
  CHANNEL_BASE_URL_MAX,
  CHANNEL_GROUP_MAX,
  CHANNEL_MODEL_MAPPING_MAX,
  channelBaseUrl,
  createChannelInput,
  updateChannelInput,
} from './channels';

const form = { type: 1, name: 'main', key: 'sk-one', models: 'gpt-4o', group: 'default' };

/** The first issue of a refused input: the message the server answers, the path and rule the console maps. */
function refusal(result: ReturnType<typeof createChannelInput.safeParse>) {
  if (result.success) throw new Error('expected a refusal');
  const [issue] = result.error.issues;
  return { path: issue?.path, code: issue?.code, message: issue?.message };
}

describe('the channel input', () => {
  it('is normalised the way it is stored', () => {
    const parsed = createChannelInput.parse({
      ...form,
      name: ' main ',
      key: ' sk-a \n\n sk-b\n',
      base_url: ' https://proxy.example.com/v1/ ',
      models: ['gpt-4o', ' o1 ', 'gpt-4o', ''],
      group: 'default, vip,default',
      model_mapping: '  {"gpt-4-0314": "gpt-4"}  ',
    });
    expect(parsed).toMatchObject({
      name: 'main',
      key: 'sk-a\nsk-b',
      base_url: 'https://proxy.example.com/v1',
      models: 'gpt-4o,o1',
      group: 'default,vip',
      model_mapping: '{"gpt-4-0314": "gpt-4"}',
    });
  });

  it("fills an empty other with the type's default on creation", () => {
    expect(createChannelInput.parse({ ...form, type: 3 }).other).toBe('2024-03-01-preview');
    expect(createChannelInput.parse({ ...form, type: 18, other: ' ' }).other).toBe('v2.1');
    expect(createChannelInput.parse({ ...form, type: 3, other: '2024-06-01' }).other).toBe('2024-06-01');
    expect(createChannelInput.parse(form).other).toBe('');
  });

  it.each([
    [{ name: ' ' }, 'name', 'Please fill in the channel name and channel key'],
    [{ key: ' \n ' }, 'key', 'Please fill in the channel name and channel key'],
    [{ models: ' , ' }, 'models', 'Please select at least one model'],
    [{ models: undefined }, 'models', 'Please select at least one model'],
    [{ group: [] }, 'group', 'Please select at least one group'],
    [{ group: 'g'.repeat(CHANNEL_GROUP_MAX + 1) }, 'group', /at most 32 characters/],
    [{ model_mapping: '{oops' }, 'model_mapping', 'Model mapping must be valid JSON'],
    [{ base_url: 'proxy.example.com' }, 'base_url', /must start with http/],
    [{ base_url: 'https://' }, 'base_url', /followed by a host name/],
    [{ base_url: 'https://exa mple.com' }, 'base_url', /followed by a host name/],
  ])('refuses %j', (patch, field, message) => {
    const issue = refusal(createChannelInput.safeParse({ ...form, ...patch }));
    expect(issue.path).toEqual([field]);
    expect(issue.message).toMatch(message);
  });

  it('names the check a custom issue broke, for the console', () => {
    const result = createChannelInput.safeParse({ ...form, base_url: 'ftp://x', model_mapping: '[1]' });
    expect(result.error?.issues).toMatchObject([
      { path: ['base_url'], code: 'custom', params: { rule: 'url' } },
      { path: ['model_mapping'], code: 'custom', params: { rule: 'json' } },
    ]);
  });

  it('holds a base URL and a mapping as long as their columns, measured once normalised', () => {
    const host = 'https://example.com/';
    const fits = `${host}${'a'.repeat(CHANNEL_BASE_URL_MAX - host.length)}`;
    expect(createChannelInput.parse({ ...form, base_url: `${fits}///` }).base_url).toBe(fits);
    expect(refusal(createChannelInput.safeParse({ ...form, base_url: `${fits}a` }))).toMatchObject({
      path: ['base_url'],
      code: 'too_big',
      message: `The base URL must be at most ${CHANNEL_BASE_URL_MAX} characters`,
    });
    const mapping = (length: number) => JSON.stringify({ a: 'b'.repeat(length - 8) });
    expect(
      createChannelInput.safeParse({ ...form, model_mapping: mapping(CHANNEL_MODEL_MAPPING_MAX) }).success,
    ).toBe(true);
    expect(
      refusal(
        createChannelInput.safeParse({ ...form, model_mapping: mapping(CHANNEL_MODEL_MAPPING_MAX + 1) }),
      ),
    ).toMatchObject({ path: ['model_mapping'], code: 'too_big' });
  });

  it('accepts an empty base URL: the type default applies', () => {
    expect(createChannelInput.parse({ ...form, base_url: ' / ' }).base_url).toBe('');
    expect(channelBaseUrl({ type: 1, base_url: '' })).toBe('https://api.openai.com');
    expect(channelBaseUrl({ type: 1, base_url: 'https://proxy.example.com/' })).toBe(
      'https://proxy.example.com',
    );
  });

  it('checks on update only the fields given, and keeps the stored key when the key is empty', () => {
    expect(updateChannelInput.parse({ id: 4, weight: 2 })).toEqual({ id: 4, weight: 2 });
    expect(updateChannelInput.parse({ id: 4, key: '  ' }).key).toBeUndefined();
    expect(updateChannelInput.parse({ id: 4, key: ' sk-new ' }).key).toBe('sk-new');
    const noModels = updateChannelInput.safeParse({ id: 4, models: '' });
    expect(noModels.error?.issues[0]?.message).toBe('Please select at least one model');
  });
});

describe('the channel config', () => {
  it.each([
    ['not JSON', '{region: ap-guangzhou', /must be valid JSON$/],
    ['a JSON array', '["ap-guangzhou"]', /must be valid JSON: an object such as/],
    ['a JSON string', '"ap-guangzhou"', /must be valid JSON: an object such as/],
    ['a setting that is not text', '{"region": 5}', /value of "region" must be a string/],
  ])('refuses %s with a clear message', (_name, config, message) => {
    for (const input of [
      { ...form, config },
      { id: 1, config },
    ]) {
      const schema = 'id' in input ? updateChannelInput : createChannelInput;
      const result = schema.safeParse(input);
      expect(result.success).toBe(false);
      const [issue] = result.success ? [] : result.error.issues;
      expect(issue).toMatchObject({ path: ['config'], code: 'custom', params: { rule: 'json' } });
      expect(issue?.message).toMatch(message);
    }
  });

  it.each([
    '',
    '{}',
    '{"region": "ap-guangzhou"}',
    '{\n  "ak": "id",\n  "sk": "secret",\n  "user_id": "u"\n}',
  ])('accepts %j', (config) => {
    expect(createChannelInput.safeParse({ ...form, config }).success).toBe(true);
  });
});
