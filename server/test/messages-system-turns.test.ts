import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicHandler } from './fakes/anthropic';
import { geminiHandler } from './fakes/gemini';
import { HttpFake } from './fakes/http-fake';
import { openAiHandler } from './fakes/openai';
import { startTestApp, type TestApp } from './harness';
import { type Customer, createChannel, createCustomer } from './relay-setup';

const OPENAI_MODEL = 'gpt-4o';
const GEMINI = 24;
const GEMINI_MODEL = 'gemini-2.5-flash';
const GEMINI_KEY = 'gemini-system-turns-key';
const ANTHROPIC = 14;
const CLAUDE = 'claude-sonnet-4-20250514';
const ANTHROPIC_KEY = 'sk-ant-api03-system-turns';

const AGENTS = 'Available agent types for the Agent tool: general-purpose, Explore.';

/** What Claude Code sends: its prompt in `system`, and more instructions as a system turn after the user's prompt. */
const claudeCodeTurns = (model: string): Anthropic.MessageCreateParamsNonStreaming => ({
  model,
  max_tokens: 256,
  system: [{ type: 'text', text: 'You are Claude Code.' }],
  messages: [
    { role: 'user', content: 'List the files here.' },
    { role: 'system', content: [{ type: 'text', text: AGENTS }] },
  ],
});

/** System turns inside `messages` (Anthropic) or `input` (Responses) stay system instructions on every channel. */
describe('system turns among the messages, translated to other formats', () => {
  let t: TestApp;
  let openAiFake: HttpFake;
  let geminiFake: HttpFake;
  let anthropicFake: HttpFake;
  let customer: Customer;
  let claude: Anthropic;
  const sent: string[] = [];

  beforeAll(async () => {
    openAiFake = await new HttpFake(openAiHandler()).start();
    geminiFake = await new HttpFake(geminiHandler({ apiKey: GEMINI_KEY, reply: 'Three files.' })).start();
    anthropicFake = await new HttpFake(
      anthropicHandler({ apiKey: ANTHROPIC_KEY, reply: 'Three files.' }),
    ).start();
    t = await startTestApp();
    const root = await t.root();
    await createChannel(root, { base_url: openAiFake.url, models: OPENAI_MODEL });
    await createChannel(root, {
      type: GEMINI,
      base_url: geminiFake.url,
      key: GEMINI_KEY,
      models: GEMINI_MODEL,
    });
    await createChannel(root, {
      type: ANTHROPIC,
      base_url: anthropicFake.url,
      key: ANTHROPIC_KEY,
      models: CLAUDE,
    });
    customer = await createCustomer(t, 'systemturns', { quota: 100_000_000 });
    claude = new Anthropic({
      apiKey: `sk-${customer.token.key}`,
      baseURL: t.baseUrl,
      maxRetries: 0,
      fetch: async (url: string | URL | Request, init?: RequestInit) => {
        sent.push(String(init?.body));
        return fetch(url, init);
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([openAiFake.close(), geminiFake.close(), anthropicFake.close()]);
  });

  it('Claude Code on an OpenAI channel: its system turn is a system message, in place', async () => {
    const answer = await claude.messages.create(claudeCodeTurns(OPENAI_MODEL));
    expect(answer.content).toEqual([
      expect.objectContaining({ type: 'text', text: 'Hello from the fake upstream' }),
    ]);
    expect(openAiFake.last().json?.messages).toEqual([
      { role: 'system', content: 'You are Claude Code.' },
      { role: 'user', content: 'List the files here.' },
      { role: 'system', content: AGENTS },
    ]);
  });

  it('Claude Code on a Gemini channel: its system turn joins the system instruction, after the prompt', async () => {
    const answer = await claude.messages.create(claudeCodeTurns(GEMINI_MODEL));
    expect(answer.content).toEqual([expect.objectContaining({ type: 'text', text: 'Three files.' })]);
    expect(geminiFake.last().json).toMatchObject({
      systemInstruction: { parts: [{ text: `You are Claude Code.\n\n${AGENTS}` }] },
      contents: [{ role: 'user', parts: [{ text: 'List the files here.' }] }],
    });
  });

  it('Claude Code on an Anthropic channel: the body passes as it was sent', async () => {
    await claude.messages.create(claudeCodeTurns(CLAUDE));
    expect(anthropicFake.last().body).toBe(sent.at(-1));
    expect(anthropicFake.last().json?.messages).toEqual(claudeCodeTurns(CLAUDE).messages);
  });

  it('Responses developer and system items stay system instructions on Gemini and Anthropic channels', async () => {
    const input = [
      { role: 'user' as const, content: 'List the files here.' },
      { role: 'developer' as const, content: AGENTS },
      { role: 'system' as const, content: 'Answer briefly.' },
    ];
    await customer.openai.responses.create({ model: GEMINI_MODEL, instructions: 'You are Codex.', input });
    expect(geminiFake.last().json).toMatchObject({
      systemInstruction: { parts: [{ text: `You are Codex.\n\n${AGENTS}\n\nAnswer briefly.` }] },
      contents: [{ role: 'user', parts: [{ text: 'List the files here.' }] }],
    });
    await customer.openai.responses.create({ model: CLAUDE, instructions: 'You are Codex.', input });
    expect(anthropicFake.last().json).toMatchObject({
      system: `You are Codex.\n\n${AGENTS}\n\nAnswer briefly.`,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'List the files here.' }] }],
    });
  });
});
