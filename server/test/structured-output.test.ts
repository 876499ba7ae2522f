import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicHandler } from './fakes/anthropic';
import { geminiHandler } from './fakes/gemini';
import { HttpFake } from './fakes/http-fake';
import { startTestApp, type TestApp } from './harness';
import { expectedQuota, spentBy } from './providers/quota-check';
import { type Customer, createChannel, createCustomer } from './relay-setup';

const ANTHROPIC = 14;
const CLAUDE = 'claude-sonnet-4-5';
/** A Claude before 4.5: Anthropic refuses it a schema for the answer. */
const OLD_CLAUDE = 'claude-3-5-haiku-20241022';
const ANTHROPIC_KEY = 'sk-ant-api03-structured';
const GEMINI = 24;
const GEMINI_MODEL = 'gemini-2.5-flash';
const GEMINI_KEY = 'gemini-structured-key';

/** The schema Gemini CLI's model router asks its classifier to answer in. */
const ROUTER_SCHEMA = {
  type: 'object',
  properties: {
    reasoning: { type: 'string', description: 'A brief explanation of the choice.' },
    model_choice: { type: 'string', enum: ['flash', 'pro'] },
  },
  required: ['reasoning', 'model_choice'],
};
const ROUTER_ANSWER = '{"reasoning":"A simple question.","model_choice":"flash"}';
/** The schema as Anthropic takes it: every object closed. */
const CLOSED_ROUTER_SCHEMA = { ...ROUTER_SCHEMA, additionalProperties: false };

describe('structured output (a JSON schema for the answer) carried to translated channels', () => {
  let t: TestApp;
  let anthropic: HttpFake;
  let gemini: HttpFake;
  let customer: Customer;
  let genai: GoogleGenAI;

  beforeAll(async () => {
    anthropic = await new HttpFake(
      anthropicHandler({
        apiKey: ANTHROPIC_KEY,
        reply: ROUTER_ANSWER,
        usage: { input_tokens: 60, output_tokens: 14 },
      }),
    ).start();
    gemini = await new HttpFake(geminiHandler({ apiKey: GEMINI_KEY, reply: ROUTER_ANSWER })).start();
    t = await startTestApp();
    const root = await t.root();
    await createChannel(root, {
      type: ANTHROPIC,
      base_url: anthropic.url,
      key: ANTHROPIC_KEY,
      models: `${CLAUDE},${OLD_CLAUDE}`,
    });
    await createChannel(root, { type: GEMINI, base_url: gemini.url, key: GEMINI_KEY, models: GEMINI_MODEL });
    customer = await createCustomer(t, 'structured', { quota: 100_000_000 });
    genai = new GoogleGenAI({
      apiKey: `sk-${customer.token.key}`,
      httpOptions: { baseUrl: t.baseUrl, apiVersion: 'v1beta' },
    });
  });
  afterAll(async () => {
    await t.close();
    await gemini.close();
    await anthropic.close();
  });

  it("Gemini CLI's router (generateContent, responseJsonSchema) on an Anthropic channel: the schema as output_config, one billed call", async () => {
    let text: string | undefined;
    const { quota, log } = await spentBy(t, customer, async () => {
      const answer = await genai.models.generateContent({
        model: CLAUDE,
        contents: [{ role: 'user', parts: [{ text: 'Route: what is 2+2?' }] }],
        config: {
          systemInstruction: 'You are a routing classifier.',
          responseMimeType: 'application/json',
          responseJsonSchema: ROUTER_SCHEMA,
          temperature: 0,
          maxOutputTokens: 1024,
        },
      });
      text = answer.text;
    });
    expect(anthropic.last().json).toMatchObject({
      model: CLAUDE,
      system: 'You are a routing classifier.',
      output_config: { format: { type: 'json_schema', schema: CLOSED_ROUTER_SCHEMA } },
    });
    expect(JSON.parse(text ?? '')).toEqual({ reasoning: 'A simple question.', model_choice: 'flash' });
    const expected = expectedQuota(CLAUDE, ANTHROPIC, { prompt: 60, completion: 14 });
    expect(quota).toBe(expected);
    expect(log).toMatchObject({ prompt_tokens: 60, completion_tokens: 14, quota: expected });
  });

  it('Gemini responseSchema (its OpenAPI form) on an Anthropic channel, streamed: the JSON schema as output_config', async () => {
    const stream = await genai.models.generateContentStream({
      model: CLAUDE,
      contents: 'Route this.',
      config: {
        responseMimeType: 'application/json',
        responseSchema: { type: 'OBJECT', properties: { choice: { type: 'STRING', nullable: true } } },
      },
    });
    let text = '';
    for await (const chunk of stream) text += chunk.text ?? '';
    expect(text).toBe(ROUTER_ANSWER);
    expect(anthropic.last().json).toMatchObject({
      stream: true,
      output_config: {
        format: {
          type: 'json_schema',
          schema: {
            type: 'object',
            properties: { choice: { type: ['string', 'null'] } },
            additionalProperties: false,
          },
        },
      },
    });
  });

  it('openai chat response_format json_schema on an Anthropic channel: output_config, unenforceable limits moved into the description', async () => {
    const completion = await customer.openai.chat.completions.create({
      model: CLAUDE,
      messages: [{ role: 'user', content: 'Route.' }],
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'route',
          strict: true,
          schema: {
            ...CLOSED_ROUTER_SCHEMA,
            properties: {
              ...ROUTER_SCHEMA.properties,
              steps: {
                type: 'array',
                items: { type: 'object', properties: { n: { type: 'integer', minimum: 1 } } },
              },
            },
          },
        },
      },
    });
    expect(completion.choices[0]?.message.content).toBe(ROUTER_ANSWER);
    expect(anthropic.last().json?.output_config).toEqual({
      format: {
        type: 'json_schema',
        schema: {
          ...CLOSED_ROUTER_SCHEMA,
          properties: {
            ...ROUTER_SCHEMA.properties,
            steps: {
              type: 'array',
              items: {
                type: 'object',
                properties: { n: { type: 'integer', description: '(minimum: 1)' } },
                additionalProperties: false,
              },
            },
          },
        },
      },
    });
  });

  it('Responses text.format json_schema on an Anthropic channel: output_config', async () => {
    const response = await customer.openai.responses.create({
      model: CLAUDE,
      input: 'Route.',
      text: { format: { type: 'json_schema', name: 'route', schema: ROUTER_SCHEMA } },
    });
    expect(response.output_text).toBe(ROUTER_ANSWER);
    expect(anthropic.last().json?.output_config).toEqual({
      format: { type: 'json_schema', schema: CLOSED_ROUTER_SCHEMA },
    });
  });

  it('a Claude before 4.5 or json_object (no JSON mode at Anthropic): asked for in words after the system prompt, no output_config', async () => {
    await customer.openai.chat.completions.create({
      model: OLD_CLAUDE,
      messages: [
        { role: 'system', content: 'Classify.' },
        { role: 'user', content: 'Route.' },
      ],
      response_format: { type: 'json_schema', json_schema: { name: 'route', schema: ROUTER_SCHEMA } },
    });
    const old = anthropic.last().json ?? {};
    expect(old).not.toHaveProperty('output_config');
    expect(old.system).toBe(
      `Classify.\n\nAnswer with one JSON value only, without any text or code fence around it. It must match this JSON schema: ${JSON.stringify(ROUTER_SCHEMA)}`,
    );

    await customer.openai.chat.completions.create({
      model: CLAUDE,
      messages: [{ role: 'user', content: 'Route.' }],
      response_format: { type: 'json_object' },
    });
    const mode = anthropic.last().json ?? {};
    expect(mode).not.toHaveProperty('output_config');
    expect(mode.system).toBe('Answer with one JSON value only, without any text or code fence around it.');
  });

  it('openai chat response_format json_schema on a Gemini channel: responseMimeType and responseSchema', async () => {
    const completion = await customer.openai.chat.completions.create({
      model: GEMINI_MODEL,
      messages: [{ role: 'user', content: 'Route.' }],
      response_format: { type: 'json_schema', json_schema: { name: 'route', schema: CLOSED_ROUTER_SCHEMA } },
    });
    expect(completion.choices[0]?.message.content).toBe(ROUTER_ANSWER);
    // Gemini's Schema has no additionalProperties: it refuses a request with one.
    expect(gemini.last().json?.generationConfig).toEqual({
      responseMimeType: 'application/json',
      responseSchema: ROUTER_SCHEMA,
    });
  });

  it('Anthropic SDK output_config.format on a Gemini channel: responseMimeType and responseSchema', async () => {
    const claude = new Anthropic({ apiKey: `sk-${customer.token.key}`, baseURL: t.baseUrl, maxRetries: 0 });
    const message = await claude.messages.create({
      model: GEMINI_MODEL,
      max_tokens: 256,
      messages: [{ role: 'user', content: 'Route.' }],
      output_config: { format: { type: 'json_schema', schema: CLOSED_ROUTER_SCHEMA } },
    });
    expect(message.content).toEqual([{ type: 'text', text: ROUTER_ANSWER }]);
    expect(gemini.last().json?.generationConfig).toMatchObject({
      responseMimeType: 'application/json',
      responseSchema: ROUTER_SCHEMA,
    });
  });
});
