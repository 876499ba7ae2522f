import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './databases';
import { HttpFake } from './fakes/http-fake';
import { openAiHandler } from './fakes/openai';
import { type EnvelopeBody, startTestApp, type TestApp } from './harness';
import { type HeadChannelRow, seedHeadDatabase } from './one-api-head-db';
import { type Customer, consumeLogs, createCustomer } from './relay-setup';

/**
 * One channel row as one-api HEAD stores it, and the call that must reach the fake through it.
 * `base` is appended to the fake's URL (empty base_url columns are not used: the fake must be hit).
 * Types with their own wire format are in one-api-head-native-channels.test.ts (shared schema: one-api-head-db.ts).
 */
interface HeadChannel extends Omit<HeadChannelRow, 'id' | 'baseUrl'> {
  base: string;
  /** The model the client asks for. */
  model: string;
  /** Where it must arrive, and the model name sent upstream. */
  path: string;
  upstreamModel?: string;
}

const HEAD_CHANNELS: HeadChannel[] = [
  {
    type: 36,
    key: 'sk-ds',
    base: '',
    models: 'deepseek-chat,deepseek-reasoner',
    model: 'deepseek-reasoner',
    path: '/v1/chat/completions',
  },
  {
    type: 39,
    key: 'tg',
    base: '',
    models: 'Qwen/Qwen1.5-72B-Chat',
    model: 'Qwen/Qwen1.5-72B-Chat',
    path: '/v1/chat/completions',
    config: '{}',
  },
  {
    type: 40,
    key: 'ark',
    base: '',
    models: 'doubao-lite-4k,ep-20240608051426-tkxvl',
    model: 'doubao-lite-4k',
    path: '/api/v3/chat/completions',
    upstreamModel: 'ep-20240608051426-tkxvl',
    modelMapping: '{"doubao-lite-4k":"ep-20240608051426-tkxvl"}',
    // The console saves its whole config object, empty strings included.
    config: '{"region":"","sk":"","ak":"","user_id":"","vertex_ai_project_id":"","vertex_ai_adc":""}',
  },
  {
    type: 41,
    key: 'nv',
    base: '/v3/openai',
    models: 'gryphe/mythomax-l2-13b',
    model: 'gryphe/mythomax-l2-13b',
    path: '/v3/openai/chat/completions',
  },
  {
    type: 44,
    key: 'sf',
    base: '',
    models: 'THUDM/glm-4-9b-chat',
    model: 'THUDM/glm-4-9b-chat',
    path: '/v1/chat/completions',
    systemPrompt: '',
  },
  { type: 45, key: 'xai', base: '', models: 'grok-2', model: 'grok-2', path: '/v1/chat/completions' },
  {
    type: 47,
    key: 'bce',
    base: '',
    models: 'ernie-4.0-8k,deepseek-v3',
    model: 'deepseek-v3',
    path: '/v2/chat/completions',
  },
  {
    type: 48,
    key: 'spark',
    base: '',
    models: 'lite,4.0Ultra',
    model: '4.0Ultra',
    path: '/v1/chat/completions',
    other: '',
  },
  {
    type: 49,
    key: 'dash',
    base: '',
    models: 'qwen-max,qwq-32b-preview',
    model: 'qwq-32b-preview',
    path: '/compatible-mode/v1/chat/completions',
  },
  { type: 50, key: 'compat', base: '/v1', models: 'gpt-4o', model: 'gpt-4o', path: '/v1/chat/completions' },
  {
    type: 51,
    key: 'gem',
    base: '/v1beta/openai/',
    models: 'gemini-1.5-flash',
    model: 'gemini-1.5-flash',
    path: '/v1beta/openai/chat/completions',
  },
];

const PROXY_ID = 100;

describe('a one-api HEAD database holding the later channel types', () => {
  let database: TestDatabase;
  let fake: HttpFake;
  let t: TestApp;
  let customer: Customer;
  const ids = new Map<number, number>();

  beforeAll(async () => {
    fake = await new HttpFake(
      openAiHandler({ reply: 'adopted', usage: { prompt_tokens: 9, completion_tokens: 4 } }),
    ).start();
    database = await createTestDatabase();
    await seedHeadDatabase(
      database,
      HEAD_CHANNELS.map((row, index) => {
        ids.set(row.type, index + 1);
        return { ...row, id: index + 1, baseUrl: fake.url + row.base };
      }),
      // A Proxy channel as one-api's console saves it: no models, no abilities.
      async (db) => {
        await sql`insert into channels (id, type, ${sql.ref('key')}, status, name, base_url, models, config)
          values (${PROXY_ID}, 43, 'Bearer sk-up', 1, 'head-proxy', ${fake.url}, '', '{}')`.execute(db);
      },
    );
    t = await startTestApp({ database });
    customer = await createCustomer(t, 'headuser', { quota: 10_000_000 });
  });
  afterAll(async () => {
    await t?.close();
    await database?.drop();
    await fake?.close();
  });

  it('shows every channel in the console with its type, models, mapping and config', async () => {
    const root = await t.root();
    for (const row of HEAD_CHANNELS) {
      const one = await root.get<EnvelopeBody<Record<string, unknown>>>(`/api/channel/${ids.get(row.type)}`);
      expect(one.body.data, `type ${row.type}`).toMatchObject({
        type: row.type,
        models: row.models,
        model_mapping: row.modelMapping ?? '',
        config: row.config ?? '',
      });
    }
  });

  it.each(HEAD_CHANNELS)('relays through the stored type $type channel to its URL, billed', async (row) => {
    const answer = await customer.openai.chat.completions.create({
      model: row.model,
      messages: [{ role: 'user', content: 'from an old database' }],
    });
    expect(answer.choices[0]?.message.content).toBe('adopted');
    expect(fake.last()).toMatchObject({
      url: row.path,
      headers: { authorization: `Bearer ${row.key}` },
      json: { model: row.upstreamModel ?? row.model },
    });
    await t.app.services.relay.settled();
    const log = (await consumeLogs(t, customer.userId)).at(-1);
    expect(log).toMatchObject({
      channel_id: ids.get(row.type),
      model_name: row.model,
      prompt_tokens: 9,
      completion_tokens: 4,
    });
  });

  it('keeps a stored Proxy channel loadable and editable without models', async () => {
    const root = await t.root();
    const one = await root.get<EnvelopeBody<Record<string, unknown>>>(`/api/channel/${PROXY_ID}`);
    expect(one.body.data).toMatchObject({ type: 43, models: '', name: 'head-proxy' });
    const edited = await root.put<EnvelopeBody<unknown>>('/api/channel/', {
      ...one.body.data,
      id: PROXY_ID,
      name: 'head-proxy-2',
      key: '',
    });
    expect(edited.body.success, edited.body.message).toBe(true);
  });
});
