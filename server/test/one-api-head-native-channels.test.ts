import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokenCounter } from '../src/relay/pipeline/tokenizer';
import { createTestDatabase, type TestDatabase } from './databases';
import { FakeBedrock } from './fakes/bedrock';
import { cloudflareHandler } from './fakes/cloudflare';
import { cohereHandler } from './fakes/cohere';
import { cozeHandler } from './fakes/coze';
import { deeplHandler } from './fakes/deepl';
import { HttpFake, type RecordedRequest } from './fakes/http-fake';
import { FakeReplicate } from './fakes/replicate';
import { FakeVertex } from './fakes/vertex';
import { type EnvelopeBody, startTestApp, type TestApp } from './harness';
import { headConfig, seedHeadDatabase } from './one-api-head-db';
import { expectedQuota, spentBy } from './providers/quota-check';
import { type Customer, consumeLogs, createCustomer } from './relay-setup';

const QUESTION = 'from an old database';
const counter = createTokenCounter(() => false);

const AWS = {
  region: 'us-west-2',
  accessKeyId: 'AKIAHEADBEDROCK00001',
  secretAccessKey: 'headSecret/Bedrock+0123456789abcdefghij',
};
const GOOGLE = {
  project: 'head-project',
  region: 'us-east5',
  email: 'relay@head-project.iam.gserviceaccount.com',
};
const googleKeys = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});
const bedrock = new FakeBedrock(AWS);
const vertex = new FakeVertex(
  { clientEmail: GOOGLE.email, publicKey: googleKeys.publicKey },
  GOOGLE.project,
  GOOGLE.region,
);

/** A fake upstream started for one stored channel; `requests` is what it received. */
type Fake = { url: string; requests: RecordedRequest[]; close(): Promise<void> };

/**
 * A channel row of a native-format type as one-api HEAD stores it (base_url aside: it points at the
 * type's fake, which checks the credentials the row carries), the call that must reach the fake
 * and what it must bill.
 */
interface NativeChannel {
  type: number;
  models: string;
  model: string;
  start(): Promise<Fake>;
  /** The key and config columns, which may name the fake (Vertex's token_uri). */
  stored(url: string): { key: string; config: string };
  reply: string;
  /** The last request the fake received: its path and authorization header. */
  path: string;
  auth: RegExp;
  usage: { prompt: number; completion: number };
}

const NATIVE_CHANNELS: NativeChannel[] = [
  {
    type: 33,
    models: 'claude-3-haiku-20240307,llama3-8b-8192',
    model: 'claude-3-haiku-20240307',
    start: () => new HttpFake(bedrock.handler).start(),
    // The console writes the key as ak|sk|region; only the config is read.
    stored: () => ({
      key: `${AWS.accessKeyId}|${AWS.secretAccessKey}|${AWS.region}`,
      config: headConfig({ region: AWS.region, ak: AWS.accessKeyId, sk: AWS.secretAccessKey }),
    }),
    reply: 'Hello from Bedrock',
    path: '/model/anthropic.claude-3-haiku-20240307-v1%3A0/invoke',
    auth: new RegExp(`^AWS4-HMAC-SHA256 Credential=${AWS.accessKeyId}/\\d{8}/${AWS.region}/bedrock/`),
    usage: { prompt: 11, completion: 4 },
  },
  {
    type: 34,
    models: 'bot-7340012345',
    model: 'bot-7340012345',
    start: () => new HttpFake(cozeHandler({ token: 'pat_headCoze', reply: 'coze adopted' })).start(),
    stored: () => ({ key: 'pat_headCoze', config: headConfig({ user_id: 'u-42' }) }),
    reply: 'coze adopted',
    path: '/open_api/v2/chat',
    auth: /^Bearer pat_headCoze$/,
    // Coze reports no usage: the gateway counts both sides.
    usage: {
      prompt: counter.messages([{ role: 'user', content: QUESTION }], 'bot-7340012345'),
      completion: counter.text('coze adopted', 'bot-7340012345'),
    },
  },
  {
    type: 35,
    models: 'command-r',
    model: 'command-r',
    start: () =>
      new HttpFake(
        cohereHandler({
          key: 'co-head',
          reply: 'cohere adopted',
          billed: { input_tokens: 8, output_tokens: 2 },
        }),
      ).start(),
    stored: () => ({ key: 'co-head', config: headConfig() }),
    reply: 'cohere adopted',
    path: '/v1/chat',
    auth: /^Bearer co-head$/,
    usage: { prompt: 8, completion: 2 },
  },
  {
    type: 37,
    models: '@cf/meta/llama-3.1-8b-instruct',
    model: '@cf/meta/llama-3.1-8b-instruct',
    start: () =>
      new HttpFake(
        cloudflareHandler({
          token: 'cf-head',
          account: 'd8d7c61dbc334c32d3ced580e4bf42b4',
          reply: 'cloudflare adopted',
          usage: { prompt_tokens: 9, completion_tokens: 3 },
        }),
      ).start(),
    stored: () => ({ key: 'cf-head', config: headConfig({ user_id: 'd8d7c61dbc334c32d3ced580e4bf42b4' }) }),
    reply: 'cloudflare adopted',
    path: '/client/v4/accounts/d8d7c61dbc334c32d3ced580e4bf42b4/ai/v1/chat/completions',
    auth: /^Bearer cf-head$/,
    usage: { prompt: 9, completion: 3 },
  },
  {
    type: 38,
    models: 'deepl-ja',
    model: 'deepl-ja',
    start: () => new HttpFake(deeplHandler({ key: 'deepl-head:fx', translation: 'こんにちは' })).start(),
    stored: () => ({ key: 'deepl-head:fx', config: headConfig() }),
    reply: 'こんにちは',
    path: '/v2/translate',
    auth: /^DeepL-Auth-Key deepl-head:fx$/,
    // Billed by the characters sent.
    usage: { prompt: QUESTION.length, completion: 0 },
  },
  {
    type: 42,
    models: 'gemini-1.5-pro-002',
    model: 'gemini-1.5-pro-002',
    start: async () => {
      const fake = await new HttpFake(vertex.handler).start();
      vertex.url = fake.url;
      return fake;
    },
    // The console writes the key as region|project|adc; only the config is read.
    stored: (url) => {
      const adc = JSON.stringify({
        type: 'service_account',
        project_id: GOOGLE.project,
        private_key_id: 'kid-head',
        private_key: googleKeys.privateKey,
        client_email: GOOGLE.email,
        token_uri: `${url}/token`,
      });
      return {
        key: `${GOOGLE.region}|${GOOGLE.project}|${adc}`,
        config: headConfig({
          region: GOOGLE.region,
          vertex_ai_project_id: GOOGLE.project,
          vertex_ai_adc: adc,
        }),
      };
    },
    reply: 'Hello from Vertex',
    path: `/v1/projects/${GOOGLE.project}/locations/${GOOGLE.region}/publishers/google/models/gemini-1.5-pro-002:generateContent`,
    auth: /^Bearer ya29\.fake-1-/,
    usage: { prompt: 9, completion: 5 },
  },
  {
    type: 46,
    models: 'meta/meta-llama-3-8b-instruct',
    model: 'meta/meta-llama-3-8b-instruct',
    start: () =>
      new FakeReplicate({
        token: 'r8_head',
        pieces: ['replicate', ' adopted'],
        metrics: { input_token_count: 14, output_token_count: 3 },
      }).start(),
    stored: () => ({ key: 'r8_head', config: headConfig() }),
    reply: 'replicate adopted',
    path: '/v1/models/meta/meta-llama-3-8b-instruct/predictions',
    auth: /^Bearer r8_head$/,
    usage: { prompt: 14, completion: 3 },
  },
];

describe('a one-api HEAD database holding the native-format channel types', () => {
  let database: TestDatabase;
  let t: TestApp;
  let customer: Customer;
  const fakes = new Map<number, Fake>();
  const stored = new Map<number, { key: string; config: string }>();
  const idOf = (type: number) => NATIVE_CHANNELS.findIndex((row) => row.type === type) + 1;

  beforeAll(async () => {
    for (const row of NATIVE_CHANNELS) {
      const fake = await row.start();
      fakes.set(row.type, fake);
      stored.set(row.type, row.stored(fake.url));
    }
    database = await createTestDatabase();
    await seedHeadDatabase(
      database,
      NATIVE_CHANNELS.map((row) => ({
        id: idOf(row.type),
        type: row.type,
        models: row.models,
        baseUrl: fakes.get(row.type)!.url,
        ...stored.get(row.type)!,
        systemPrompt: row.type % 2 ? '' : null,
      })),
    );
    t = await startTestApp({ database });
    customer = await createCustomer(t, 'headnative', { quota: 100_000_000 });
  });
  afterAll(async () => {
    await t?.close();
    await database?.drop();
    for (const fake of fakes.values()) await fake.close();
  });

  it('shows every channel to root with its type, models and whole config, secrets included', async () => {
    const root = await t.root();
    for (const row of NATIVE_CHANNELS) {
      const one = await root.get<EnvelopeBody<Record<string, unknown>>>(`/api/channel/${idOf(row.type)}`);
      expect(one.body.success, `type ${row.type}: ${one.body.message}`).toBe(true);
      expect(one.body.data, `type ${row.type}`).toMatchObject({
        type: row.type,
        models: row.models,
        config: stored.get(row.type)?.config,
      });
    }
  });

  it.each(NATIVE_CHANNELS)(
    'relays a chat completion through the stored type $type channel, billed once',
    async (row) => {
      const logsBefore = (await consumeLogs(t, customer.userId)).length;
      const { quota, log } = await spentBy(t, customer, async () => {
        const answer = await customer.openai.chat.completions.create({
          model: row.model,
          messages: [{ role: 'user', content: QUESTION }],
        });
        expect(answer.choices[0]?.message.content).toBe(row.reply);
      });
      const last = fakes.get(row.type)!.requests.at(-1);
      expect(last?.url).toBe(row.path);
      expect(String(last?.headers.authorization)).toMatch(row.auth);
      expect((await consumeLogs(t, customer.userId)).length).toBe(logsBefore + 1);
      expect(log).toMatchObject({
        channel_id: idOf(row.type),
        model_name: row.model,
        prompt_tokens: row.usage.prompt,
        completion_tokens: row.usage.completion,
      });
      expect(quota).toBeGreaterThan(0);
      expect(quota).toBe(expectedQuota(row.model, row.type, row.usage));
      expect(Number(log?.quota)).toBe(quota);
    },
  );
});
