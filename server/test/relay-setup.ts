import type { Token } from '@switchyard/contract/tokens';
import OpenAI from 'openai';
import type { Client, EnvelopeBody, TestApp } from './harness';

export interface ChannelSpec {
  name?: string;
  type?: number;
  key?: string;
  base_url: string;
  models?: string;
  group?: string;
  priority?: number;
  weight?: number;
  model_mapping?: string;
  other?: string;
  config?: string;
}

/** Creates a channel through the API and answers its id. */
export async function createChannel(root: Client, spec: ChannelSpec): Promise<number> {
  const response = await root.post<EnvelopeBody<{ ids: number[] }>>('/api/channel/', {
    name: spec.name ?? 'fake',
    type: spec.type ?? 1,
    key: spec.key ?? 'sk-upstream-key',
    models:
      spec.models ??
      'gpt-3.5-turbo,gpt-4,text-embedding-ada-002,text-moderation-latest,dall-e-2,tts-1,whisper-1',
    group: spec.group ?? 'default',
    ...spec,
  });
  if (!response.body.success) throw new Error(`channel: ${response.body.message}`);
  return response.body.data!.ids[0]!;
}

export interface Customer {
  client: Client;
  userId: number;
  token: Token;
  openai: OpenAI;
}

/** A user with quota and a token, and an `openai` SDK client pointed at the gateway. */
export async function createCustomer(
  t: Pick<TestApp, 'baseUrl' | 'root' | 'user'>,
  username: string,
  options: { quota?: number; token?: Record<string, unknown> } = {},
): Promise<Customer> {
  const client = await t.user(username);
  const self = await client.get<EnvelopeBody<{ id: number }>>('/api/user/self');
  const userId = self.body.data!.id;
  const root = await t.root();
  if ((options.quota ?? 1_000_000) > 0)
    await root.post('/api/topup', { user_id: userId, quota: options.quota ?? 1_000_000 });
  const created = await client.post<EnvelopeBody<Token>>('/api/token/', {
    name: `${username}-key`,
    remain_quota: 1_000_000,
    expired_time: -1,
    ...options.token,
  });
  if (!created.body.success) throw new Error(`token: ${created.body.message}`);
  const token = created.body.data!;
  return { client, userId, token, openai: openAiFor(t, `sk-${token.key}`) };
}

export const openAiFor = (t: Pick<TestApp, 'baseUrl'>, apiKey: string) =>
  new OpenAI({ apiKey, baseURL: `${t.baseUrl}/v1`, maxRetries: 0, timeout: 20_000 });

export async function balances(t: Pick<TestApp, 'db'>, userId: number, tokenId: number) {
  const user = await t.db.kysely
    .selectFrom('users')
    .selectAll()
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const token = await t.db.kysely
    .selectFrom('tokens')
    .selectAll()
    .where('id', '=', tokenId)
    .executeTakeFirstOrThrow();
  return {
    quota: Number(user.quota),
    usedQuota: Number(user.used_quota),
    requestCount: Number(user.request_count),
    held: Number(user.held_quota),
    remain: Number(token.remain_quota),
    tokenUsed: Number(token.used_quota),
    tokenHeld: Number(token.held_quota),
  };
}

export const consumeLogs = (t: Pick<TestApp, 'db'>, userId: number) =>
  t.db.kysely
    .selectFrom('logs')
    .selectAll()
    .where('user_id', '=', userId)
    .where('type', '=', 2)
    .orderBy('id')
    .execute();
