import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpFake } from './fakes/http-fake';
import { openAiHandler } from './fakes/openai';
import { type Client, startTestApp, type TestApp } from './harness';
import { sleep } from './ledger-books';
import { gauge } from './metrics-gauge';
import { createChannel, createCustomer } from './relay-setup';
import { audioForm, Upload, type UploadAnswer, upload } from './uploads';
import { waitUntil } from './wait';

const METRICS_TOKEN = 'body-limits-metrics';

const MB = 1024 * 1024;
const REPLY = 'the transcript';

/** The answer, or a failure if none came within `ms` (the server still waiting for the body). */
async function answerWithin(call: Upload, ms: number): Promise<UploadAnswer> {
  const timeout = sleep(ms).then(() => {
    throw new Error(`no answer within ${ms} ms`);
  });
  return Promise.race([call.answer, timeout]);
}

/** Starts an upload of `length` declared bytes, sends `first` of them and leaves it hanging. */
async function hold(
  url: string,
  headers: Record<string, string>,
  length: number | undefined,
  first: Buffer,
  method = 'POST',
) {
  const call = new Upload(url, headers, length, method);
  await call.write(first);
  return call;
}

describe('request bodies: read only for authenticated callers, within limits and a process-wide budget', () => {
  let t: TestApp;
  let root: Client;
  let fake: HttpFake;
  let key: string;
  let audioUrl: string;
  const audio = (size: number) => {
    const form = audioForm(size);
    return { body: form.body, headers: { authorization: `Bearer ${key}`, 'content-type': form.contentType } };
  };

  beforeAll(async () => {
    fake = await new HttpFake(openAiHandler({ reply: REPLY })).start();
    t = await startTestApp({ env: { RELAY_BODY_LIMIT: '12', REQUEST_BODY_BUDGET: '16', METRICS_TOKEN } });
    root = await t.root();
    await createChannel(root, { base_url: fake.url, models: 'gpt-3.5-turbo,whisper-1' });
    const customer = await createCustomer(t, 'uploader', { quota: 100_000_000 });
    key = `sk-${customer.token.key}`;
    audioUrl = `${t.baseUrl}/v1/audio/transcriptions`;
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  describe('the caller is checked from the headers, before the body is read', () => {
    const refusedEarly = async (path: string, headers: Record<string, string>, method = 'POST') => {
      const call = await hold(`${t.baseUrl}${path}`, headers, 8 * MB, Buffer.alloc(64 * 1024, 0x20), method);
      try {
        const answer = await answerWithin(call, 3_000);
        expect(answer.sentWhenAnswered).toBeLessThan(8 * MB);
        return answer;
      } finally {
        call.abort();
      }
    };
    const json = { 'content-type': 'application/json' };

    it('/v1 without a key, or with a wrong one: 401 in OpenAI shape, the same words as ever', async () => {
      const missing = await refusedEarly('/v1/chat/completions', json);
      expect(missing.status).toBe(401);
      expect(missing.json).toMatchObject({
        error: {
          message: expect.stringMatching(/^No API key provided: send it as Authorization: Bearer sk-\.\.\./),
          type: 'one_api_error',
          code: 'invalid_api_key',
        },
      });
      const wrong = await refusedEarly('/v1/audio/transcriptions', {
        ...json,
        authorization: 'Bearer sk-not-a-real-key',
      });
      expect(wrong.status).toBe(401);
      expect(wrong.json).toMatchObject({
        error: { message: expect.stringMatching(/^Invalid API key/), code: 'invalid_api_key' },
      });
    });

    it("/v1/messages: Anthropic's error shape", async () => {
      const answer = await refusedEarly('/v1/messages', { ...json, 'x-api-key': 'sk-wrong' });
      expect(answer.status).toBe(401);
      expect(answer.json).toMatchObject({
        type: 'error',
        error: { message: expect.stringMatching(/^Invalid API key/) },
      });
    });

    it('OpenAI paths the gateway does not serve answer 501 without reading the body', async () => {
      const answer = await refusedEarly('/v1/files', { ...json, authorization: `Bearer ${key}` });
      expect(answer.status).toBe(501);
      expect(answer.json).toMatchObject({ error: { code: 'api_not_implemented' } });
    });

    it('/api routes for signed-in callers: refused before the body, in the envelope', async () => {
      const anonymous = await refusedEarly('/api/channel/', json);
      expect(anonymous.status).toBe(401);
      expect(anonymous.json).toMatchObject({ success: false, code: 'not_logged_in' });
      const user = await t.user('plainuser');
      const tooLow = await refusedEarly('/api/option/', { ...json, cookie: user.cookie }, 'PUT');
      expect(tooLow.json).toMatchObject({ success: false, code: 'role_too_low' });
      const badToken = await refusedEarly('/api/user/self', { ...json, authorization: 'not-a-token' }, 'PUT');
      expect(badToken.json).toMatchObject({ success: false, code: 'access_token_invalid' });
    });
  });

  describe('limits near what each route needs', () => {
    it('/api: 1 MB, answered 200 (as one-api) in the envelope saying so', async () => {
      const answer = await upload(
        `${t.baseUrl}/api/user/login`,
        { 'content-type': 'application/json' },
        Buffer.from(JSON.stringify({ username: 'root', password: 'x'.repeat(1.2 * MB) })),
      );
      expect(answer.status).toBe(200);
      expect(answer.json).toMatchObject({
        success: false,
        code: 'body_too_large',
        message: 'The request body is too large: at most 1 MB is accepted here',
      });
    });

    it('an option value of a million characters (the most an option takes) still fits', async () => {
      // Three bytes a character in UTF-8: 3 MB of JSON.
      const value = '关'.repeat(1_000_000);
      const saved = await root.put('/api/option/', { key: 'About', value });
      expect(saved.body).toMatchObject({ success: true });
      const read = await root.get<{ data: Array<{ key: string; value: string }> }>('/api/option/');
      expect(read.body.data.find((option) => option.key === 'About')?.value).toHaveLength(1_000_000);
    });

    it('/v1: RELAY_BODY_LIMIT, answered 413 in OpenAI shape; an upload within it is relayed whole', async () => {
      const big = audio(13 * MB);
      const refused = await upload(audioUrl, big.headers, big.body);
      expect(refused.status).toBe(413);
      expect(refused.json).toMatchObject({
        error: {
          message: expect.stringMatching(/^The request body is too large: at most 12 MB is accepted here/),
          type: 'invalid_request_error',
          code: 'body_too_large',
        },
      });

      const fits = audio(8 * MB);
      const relayed = await upload(audioUrl, fits.headers, fits.body);
      expect(relayed.status).toBe(200);
      expect(relayed.json).toEqual({ text: REPLY });
      expect(fake.last().url).toBe('/v1/audio/transcriptions');
      expect(fake.last().body.length).toBe(fits.body.length);
    });
  });

  describe('REQUEST_BODY_BUDGET: bodies in memory across all calls', () => {
    /** Waits until the server counts `bytes` of bodies against its budget (its /metrics gauge). */
    const budgetHolds = (bytes: number) =>
      waitUntil(
        async () => (await gauge(t.baseUrl, METRICS_TOKEN, 'switchyard_request_body_bytes')) >= bytes,
        {
          what: `${bytes} bytes of bodies counted`,
          intervalMs: 20,
        },
      );
    /** Tries until the budget has room again (the server sees a client go away a moment later). */
    const relayedSoon = async (size: number) => {
      for (let attempt = 0; ; attempt++) {
        const form = audio(size);
        const answer = await upload(audioUrl, form.headers, form.body);
        if (answer.status === 200 || attempt === 20) return answer;
        await sleep(100);
      }
    };

    it('with Content-Length: counted as it arrives, refused at once when it cannot fit, freed on abort', async () => {
      // The uploader's share of the 16 MB budget is 12 MB (RELAY_BODY_LIMIT, the larger of it and a quarter).
      const first = audio(10 * MB);
      const holding = await hold(audioUrl, first.headers, first.body.length, first.body.subarray(0, 9 * MB));
      await budgetHolds(9 * MB);

      const second = audio(10 * MB);
      const call = new Upload(audioUrl, second.headers, second.body.length);
      void call.write(second.body);
      const refused = await answerWithin(call, 3_000);
      call.abort();
      expect(refused.status).toBe(503);
      expect(refused.sentWhenAnswered).toBeLessThan(second.body.length);
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.json).toMatchObject({
        error: {
          message: expect.stringMatching(/^The server is receiving too much request data right now/),
          code: 'body_budget_full',
        },
      });

      // Another user holds 5 MB: 14 of 16 MB are in memory, and /api calls share the budget (in the envelope).
      const other = await createCustomer(t, 'uploader2', { quota: 100_000_000 });
      const more = audio(6 * MB);
      const otherHeaders = { ...more.headers, authorization: `Bearer sk-${other.token.key}` };
      const alsoHolding = await hold(audioUrl, otherHeaders, more.body.length, more.body.subarray(0, 5 * MB));
      await budgetHolds(14 * MB);
      const option = Buffer.from(JSON.stringify({ key: 'Notice', value: 'n'.repeat(900_000) }));
      const apiCall = new Upload(
        `${t.baseUrl}/api/option/`,
        { 'content-type': 'application/json', cookie: root.cookie, 'x-requested-with': 'switchyard-console' },
        3 * MB,
        'PUT',
      );
      await apiCall.write(option.subarray(0, 1000));
      const apiRefused = await answerWithin(apiCall, 3_000);
      apiCall.abort();
      expect(apiRefused.status).toBe(503);
      expect(apiRefused.json).toMatchObject({ success: false, code: 'body_budget_full' });

      // Both clients go away mid-upload: what they held comes back.
      holding.abort();
      alsoHolding.abort();
      expect((await relayedSoon(11 * MB)).status).toBe(200);
    });

    it('chunked bodies: counted as they arrive, refused once they overflow, freed when answered', async () => {
      const first = audio(10 * MB);
      const holding = await hold(audioUrl, first.headers, undefined, first.body.subarray(0, 10 * MB));
      await budgetHolds(10 * MB);

      const second = audio(10 * MB);
      const refused = await upload(audioUrl, second.headers, second.body, { chunked: true });
      // (What the client has sent by then says little: socket buffers take megabytes.)
      expect(refused.status).toBe(503);
      expect(refused.json).toMatchObject({ error: { code: 'body_budget_full' } });

      await holding.write(first.body.subarray(10 * MB));
      holding.end();
      expect((await holding.answer).status).toBe(200);

      // Keep-alive calls one after the other: each gives its share back when it is answered.
      for (let i = 0; i < 3; i++) {
        const form = audio(11 * MB);
        const response = await fetch(audioUrl, { method: 'POST', headers: form.headers, body: form.body });
        expect(response.status).toBe(200);
        await response.text();
      }
    });
  });
});
