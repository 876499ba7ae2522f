import type { Token } from '@switchyard/contract/tokens';
import { expect } from 'vitest';
import type { Client, EnvelopeBody, TestApp } from './harness';

export interface ChatAnswer {
  status: number;
  headers: Headers;
  body: { error?: { code?: string; message?: string; type?: string } } & Record<string, unknown>;
}

/** One chat call with a key, read whole. */
export async function chat(
  t: Pick<TestApp, 'baseUrl'>,
  key: string,
  extra: Record<string, unknown> = {},
): Promise<ChatAnswer> {
  const response = await fetch(`${t.baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer sk-${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'hi' }], ...extra }),
  });
  const text = await response.text();
  // A stream is kept as its text; a JSON answer (errors included) parsed.
  const body = text.startsWith('data:') ? { stream: text } : JSON.parse(text);
  return { status: response.status, headers: response.headers, body };
}

/** A key of `owner` with the given fields (limits, budget), created through the console API. */
export async function keyWith(owner: Client, name: string, fields: Record<string, unknown>): Promise<Token> {
  const created = await owner.post<EnvelopeBody<Token>>('/api/token/', {
    name,
    remain_quota: 0,
    unlimited_quota: true,
    expired_time: -1,
    ...fields,
  });
  expect(created.body.success, created.body.message).toBe(true);
  return created.body.data as Token;
}

/** Waits for a fresh minute when less than `marginMs` of this one is left (tokens count in whole minutes). */
export async function awayFromMinuteEnd(marginMs = 15_000): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

export const count = (answers: ChatAnswer[], status: number) =>
  answers.filter((answer) => answer.status === status).length;
