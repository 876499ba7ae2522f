import type { Channel } from '@switchyard/contract/channels';
import { beforeAll, describe, expect, it } from 'vitest';
import { i18n } from '../../../i18n/i18n';
import {
  baseUrlField,
  type ChannelFormValues,
  initialChannelValues,
  toChannelChange,
  withType,
} from './channel-form-values';

const t = i18n.t.bind(i18n);
const values = (patch: Partial<ChannelFormValues> = {}): ChannelFormValues => ({
  ...initialChannelValues(),
  name: 'main',
  key: 'sk-one',
  models: ['gpt-4o'],
  ...patch,
});

const channel: Channel = {
  id: 9,
  type: 3,
  key: '',
  status: 1,
  name: 'azure',
  weight: 2,
  created_time: 0,
  test_time: 0,
  response_time: 0,
  base_url: 'https://example.openai.azure.com',
  other: '2024-03-01-preview',
  balance: 0,
  balance_updated_time: 0,
  models: 'gpt-4o,gpt-4',
  group: 'default,vip',
  used_quota: 0,
  model_mapping: '{"gpt-4-0314":"gpt-4"}',
  priority: 5,
  config: '',
  system_prompt: '',
  test_error: '',
};

beforeAll(async () => {
  await i18n.changeLanguage('en');
});

describe('channel form checks (spec section 5)', () => {
  it("sends a Proxy channel (one-api's type 43) without models or mapping", () => {
    const proxy = values({
      type: 43,
      baseUrl: 'https://up.example.com',
      models: ['gpt-4o'],
      modelMapping: '{"a":"b"}',
    });
    const result = toChannelChange(proxy, null, t);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.change.input).toMatchObject({ type: 43, models: '', model_mapping: '' });
    expect(withType(values(), 43, []).models).toEqual([]);
  });

  it('asks for the name and the key when creating', () => {
    const result = toChannelChange(values({ name: ' ', key: '' }), null, t);
    expect(result).toEqual({
      ok: false,
      errors: {
        name: 'Please fill in the channel name and channel key!',
        key: 'Please fill in the channel name and channel key!',
      },
    });
  });

  it('asks a type without a key field (Bedrock) for the name only', () => {
    const result = toChannelChange(
      values({ type: 33, name: ' ', key: '', config: { region: 'us-west-2', ak: 'AKIA', sk: 'secret' } }),
      null,
      t,
    );
    expect(result.ok ? null : result.errors).toEqual({ name: 'Please fill in the channel name!' });
  });

  it('asks for at least one model, valid mapping JSON and a group', () => {
    const result = toChannelChange(values({ models: [], modelMapping: '{"a":', groups: [] }), null, t);
    expect(result.ok ? null : result.errors).toEqual({
      models: 'Please select at least one model!',
      model_mapping: 'Model mapping must be valid JSON!',
      group: 'Please select at least one group!',
    });
    const notAnObject = toChannelChange(values({ modelMapping: '["gpt-4"]' }), null, t);
    expect(notAnObject.ok ? null : notAnObject.errors.model_mapping).toBe(
      'Model mapping must be valid JSON!',
    );
  });

  it('creates one channel per key line in batch mode and drops empty lines', () => {
    const result = toChannelChange(values({ batch: true, key: ' sk-a \n\n sk-b\n' }), null, t);
    expect(result.ok && result.change.input.key).toBe('sk-a\nsk-b');
  });

  it('removes the trailing slash of the base URL and checks its scheme', () => {
    const result = toChannelChange(values({ baseUrl: ' https://proxy.example.com/v1/ ' }), null, t);
    expect(result.ok && result.change.input.base_url).toBe('https://proxy.example.com/v1');
    const bad = toChannelChange(values({ baseUrl: 'proxy.example.com' }), null, t);
    expect(bad.ok ? null : bad.errors.base_url).toBe(
      'The base URL must start with http:// or https:// followed by a host name.',
    );
  });

  it('needs a base URL for Azure and custom channels, and has none for Spark', () => {
    const azure = toChannelChange(values({ type: 3 }), null, t);
    expect(azure.ok ? null : azure.errors.base_url).toBe('Please enter the base URL of this channel!');
    expect(baseUrlField(8)).toMatchObject({ kind: 'custom', required: true });
    expect(baseUrlField(22)).toMatchObject({ kind: 'fastgpt', required: false });
    expect(baseUrlField(1)).toEqual({ kind: 'proxy', required: false, defaultUrl: 'https://api.openai.com' });
    expect(baseUrlField(18)).toBeNull();
  });

  it("defaults Azure's other to 2024-03-01-preview and Spark's to v2.1, and sends none for types without it", () => {
    const azure = toChannelChange(values({ type: 3, baseUrl: 'https://x.openai.azure.com' }), null, t);
    expect(azure.ok && azure.change.input.other).toBe('2024-03-01-preview');
    const spark = toChannelChange(values({ type: 18, baseUrl: 'https://ignored.example.com' }), null, t);
    expect(spark.ok && spark.change.input).toMatchObject({ other: 'v2.1', base_url: '' });
    const openai = toChannelChange(values({ other: 'left over' }), null, t);
    expect(openai.ok && openai.change.input.other).toBe('');
  });

  it('sends models and groups comma-joined, a compact mapping, priority and a clamped weight', () => {
    const result = toChannelChange(
      values({
        models: ['gpt-4o', 'o1'],
        groups: ['default', 'vip'],
        modelMapping: '{\n  "gpt-4-0314": "gpt-4"\n}',
        priority: '3',
        weight: -2,
      }),
      null,
      t,
    );
    expect(result.ok && result.change).toEqual({
      id: null,
      input: {
        type: 1,
        name: 'main',
        key: 'sk-one',
        base_url: '',
        other: '',
        models: 'gpt-4o,o1',
        group: 'default,vip',
        model_mapping: '{"gpt-4-0314":"gpt-4"}',
        priority: 3,
        weight: 0,
      },
    });
  });

  it('keeps the saved key when editing with an empty key box', () => {
    const loaded = initialChannelValues(channel);
    expect(loaded).toMatchObject({
      type: 3,
      key: '',
      groups: ['default', 'vip'],
      models: ['gpt-4o', 'gpt-4'],
      modelMapping: '{\n  "gpt-4-0314": "gpt-4"\n}',
      priority: 5,
      weight: 2,
    });
    const result = toChannelChange(loaded, 9, t);
    expect(result.ok && result.change).toMatchObject({ id: 9, input: { id: 9, name: 'azure' } });
    expect(result.ok && result.change.input.key).toBeUndefined();
    const unnamed = toChannelChange({ ...loaded, name: '' }, 9, t);
    expect(unnamed.ok ? null : unnamed.errors).toEqual({ name: 'Please fill in the channel name!' });
  });
});

describe('changing the type', () => {
  it("pre-fills the type's default models only when none are chosen", () => {
    const empty = withType(values({ models: [] }), 14, ['claude-3-haiku-20240307']);
    expect(empty.models).toEqual(['claude-3-haiku-20240307']);
    const chosen = withType(values({ models: ['gpt-4o'] }), 14, ['claude-3-haiku-20240307']);
    expect(chosen.models).toEqual(['gpt-4o']);
  });

  it("gives 'other' the new type's default, keeping only a typed value of the same meaning", () => {
    const azure = withType(values({ other: '' }), 3, []);
    expect(azure.other).toBe('2024-03-01-preview');
    expect(withType(azure, 18, []).other).toBe('v2.1');
    expect(withType({ ...azure, other: '2023-05-15' }, 18, []).other).toBe('v2.1');
    expect(withType({ ...azure, other: '2023-05-15' }, 3, []).other).toBe('2023-05-15');
    expect(withType({ ...azure, type: 1, other: '' }, 1, []).other).toBe('');
  });
});

describe('a channel of a type the console does not know', () => {
  it('is saved without touching its type', () => {
    const loaded = initialChannelValues({ ...channel, type: 99, base_url: '', other: '' });
    const result = toChannelChange(loaded, 9, t);
    if (!result.ok) throw new Error('expected a change');
    expect(JSON.parse(JSON.stringify(result.change.input))).not.toHaveProperty('type');
  });
});

describe('config fields (AWS Bedrock, Vertex AI)', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('en');
  });

  it('sends the whole config object and no key for a type whose credentials are settings', () => {
    const result = toChannelChange(
      values({
        type: 33,
        key: 'typed before the type changed',
        config: { region: ' us-west-2 ', ak: 'AKIA0000', sk: 'secret', plugin: 'kept' },
      }),
      null,
      t,
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.change.input.key).toBe('');
    expect(JSON.parse(String(result.change.input.config))).toEqual({
      region: 'us-west-2',
      ak: 'AKIA0000',
      sk: 'secret',
      plugin: 'kept',
    });
  });

  it('marks each required setting left empty, but lets an edit keep a saved secret', () => {
    const refused = toChannelChange(values({ type: 42, config: { region: 'us-east5' } }), null, t);
    expect(refused).toEqual({
      ok: false,
      errors: {
        'config.vertex_ai_project_id': 'Please fill in this setting!',
        'config.vertex_ai_adc': 'Please fill in this setting!',
      },
    });
    const edited = toChannelChange(
      values({ type: 42, config: { region: 'us-east5', vertex_ai_project_id: 'p', vertex_ai_adc: '' } }),
      7,
      t,
    );
    expect(edited.ok).toBe(true);
  });

  it('refuses a region that is no region name, for it would become part of the host', () => {
    for (const region of ['127.0.0.1:8080/#', 'x@evil.example', 'us-west-2.evil', 'US-WEST-2']) {
      const refused = toChannelChange(
        values({ type: 33, config: { region, ak: 'AKIA0000', sk: 'secret' } }),
        null,
        t,
      );
      expect(refused, region).toEqual({
        ok: false,
        errors: {
          'config.region': 'A region name such as us-west-2: lower-case letters, digits and hyphens',
        },
      });
    }
  });

  it('parses the stored config back on edit and leaves other types without one', () => {
    const aws = initialChannelValues({
      ...channel,
      type: 33,
      config: '{"region":"eu-west-1","ak":"","sk":""}',
    });
    expect(aws.config).toEqual({ region: 'eu-west-1', ak: '', sk: '' });
    const openai = toChannelChange(values(), null, t);
    expect(openai.ok && 'config' in openai.change.input && openai.change.input.config).toBeFalsy();
  });
});
