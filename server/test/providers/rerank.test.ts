import { CohereClient, CohereClientV2 } from 'cohere-ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpFake, sendJson } from '../fakes/http-fake';
import {
  cohereRerankHandler,
  jinaRerankHandler,
  siliconFlowRerankHandler,
  voyageRerankHandler,
} from '../fakes/rerank';
import { type Customer, consumeLogs, createChannel, createCustomer } from '../relay-setup';
import { providerRig } from './provider-rig';
import { expectedQuota, expectRefunded, spentBy } from './quota-check';

const COHERE = 35;
const SILICONFLOW = 44;
const OPENAI_COMPATIBLE = 50;
const JINA = 1001;
const VOYAGE = 1002;
const OPENAI = 1;

const DOCUMENTS = [
  'The capital of France is Paris.',
  'Bananas are yellow.',
  'Paris hosts the Louvre, the most visited museum in France.',
];
const QUERY = 'What is the capital of France?';

interface RerankAnswer {
  id?: string;
  object?: string;
  model?: string;
  results: Array<{ index: number; relevance_score: number; document?: { text: string } }>;
  usage?: { prompt_tokens?: number; total_tokens: number; search_units?: number };
  error?: { message: string; code: string | null; param: string };
}

describe('POST /v1/rerank', () => {
  // One real server per provider, each speaking its own rerank API.
  const fakes = {
    cohere: new HttpFake(cohereRerankHandler({ key: 'co-key' })),
    jina: new HttpFake(jinaRerankHandler({ key: 'jina-key' })),
    siliconFlow: new HttpFake(siliconFlowRerankHandler({ key: 'sf-key' })),
    voyage: new HttpFake(voyageRerankHandler({ key: 'voyage-key' })),
    compatible: new HttpFake(jinaRerankHandler({ key: 'tei-key' })),
    flaky: new HttpFake(voyageRerankHandler({ key: 'flaky-key', failWith: 503 })),
  };
  const rig = providerRig({ fake: () => fakes.cohere.start(), customer: 'rerank-user' });
  const channel: Record<string, number> = {};
  let poor: Customer;

  beforeAll(async () => {
    for (const fake of Object.values(fakes)) if (!fake.url) await fake.start();
    const add = async (name: string, spec: Parameters<typeof createChannel>[1]) => {
      channel[name] = await createChannel(rig.root, { name, ...spec });
    };
    await add('cohere', { type: COHERE, key: 'co-key', base_url: fakes.cohere.url, models: 'rerank-v3.5' });
    await add('jina', {
      type: JINA,
      key: 'jina-key',
      base_url: fakes.jina.url,
      models: 'jina-reranker-v2-base-multilingual',
    });
    await add('siliconFlow', {
      type: SILICONFLOW,
      key: 'sf-key',
      base_url: fakes.siliconFlow.url,
      models: 'BAAI/bge-reranker-v2-m3',
    });
    // rerank-2 has two channels: the flaky one first (priority), the good one behind it.
    await add('flaky', {
      type: VOYAGE,
      key: 'flaky-key',
      base_url: fakes.flaky.url,
      models: 'rerank-2',
      priority: 10,
    });
    await add('voyage', {
      type: VOYAGE,
      key: 'voyage-key',
      base_url: fakes.voyage.url,
      models: 'rerank-2,rerank-2-lite',
    });
    // A self-hosted reranker behind the OpenAI compatible type: its base URL holds the version.
    await add('compatible', {
      type: OPENAI_COMPATIBLE,
      key: 'tei-key',
      base_url: `${fakes.compatible.url}/v1`,
      models: 'bge-reranker-large',
      model_mapping: JSON.stringify({ 'bge-reranker-large': 'BAAI/bge-reranker-large' }),
    });
    await add('openai', { type: OPENAI, base_url: fakes.jina.url, models: 'gpt-reranker' });
    poor = await createCustomer(rig.t, 'rerank-poor', { quota: 1 });
  });
  afterAll(async () => {
    for (const [name, fake] of Object.entries(fakes)) if (name !== 'cohere') await fake.close();
  });

  const rerank = async (body: unknown, key = rig.customer.token.key) => {
    const response = await fetch(`${rig.t.baseUrl}/v1/rerank`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as RerankAnswer };
  };

  /** Every fake's request count, to see which providers a call reached. */
  const counts = () =>
    Object.fromEntries(Object.entries(fakes).map(([name, fake]) => [name, fake.requests.length]));
  const reached = (before: Record<string, number>) =>
    Object.keys(fakes).filter(
      (name) => (fakes as Record<string, HttpFake>)[name]!.requests.length !== before[name],
    );

  it("relays to Cohere's v2 Rerank API and bills each search unit as 1,000 prompt tokens", async () => {
    fakes.cohere.use(cohereRerankHandler({ key: 'co-key', billed: 2 }));
    const before = counts();
    let answer: RerankAnswer | undefined;
    const { quota, log } = await spentBy(rig.t, rig.customer, async () => {
      const response = await rerank({
        model: 'rerank-v3.5',
        query: QUERY,
        documents: DOCUMENTS,
        top_n: 2,
        return_documents: true,
        max_tokens_per_doc: 512,
      });
      expect(response.status).toBe(200);
      answer = response.body;
    });
    expect(reached(before)).toEqual(['cohere']);
    const upstream = fakes.cohere.last();
    expect(upstream.headers.authorization).toBe('Bearer co-key');
    expect(upstream.json).toEqual({
      model: 'rerank-v3.5',
      query: QUERY,
      documents: DOCUMENTS,
      top_n: 2,
      max_tokens_per_doc: 512,
    });
    expect(answer).toEqual({
      id: 'co-rerank-1',
      object: 'rerank',
      model: 'rerank-v3.5',
      results: [
        { index: 0, relevance_score: expect.any(Number), document: { text: DOCUMENTS[0] } },
        { index: 2, relevance_score: expect.any(Number), document: { text: DOCUMENTS[2] } },
      ],
      usage: { prompt_tokens: 2000, total_tokens: 2000, search_units: 2 },
    });
    expect(log).toMatchObject({ channel_id: channel.cohere, model_name: 'rerank-v3.5', prompt_tokens: 2000 });
    expect(log?.completion_tokens).toBe(0);
    expect(quota).toBe(expectedQuota('rerank-v3.5', COHERE, { prompt: 2000, completion: 0 }));
    expect(quota).toBe(2000);
    expect(Number(log?.quota)).toBe(quota);
  });

  it("relays to Jina with {text} documents sent as texts, billing Jina's total_tokens", async () => {
    const before = counts();
    const logsBefore = (await consumeLogs(rig.t, rig.customer.userId)).length;
    let answer: RerankAnswer | undefined;
    const { quota, log } = await spentBy(rig.t, rig.customer, async () => {
      const response = await rerank({
        model: 'jina-reranker-v2-base-multilingual',
        query: QUERY,
        documents: DOCUMENTS.map((text) => ({ text })),
        top_n: 1,
      });
      expect(response.status).toBe(200);
      answer = response.body;
    });
    expect(reached(before)).toEqual(['jina']);
    expect(fakes.jina.last().json).toEqual({
      model: 'jina-reranker-v2-base-multilingual',
      query: QUERY,
      documents: DOCUMENTS,
      top_n: 1,
      return_documents: false,
    });
    // No return_documents: no documents in the answer.
    expect(answer?.results).toEqual([{ index: 0, relevance_score: expect.any(Number) }]);
    expect(answer?.usage).toEqual({ prompt_tokens: 50, total_tokens: 50 });
    expect(log).toMatchObject({ channel_id: channel.jina, prompt_tokens: 50, completion_tokens: 0 });
    expect(quota).toBe(
      expectedQuota('jina-reranker-v2-base-multilingual', JINA, { prompt: 50, completion: 0 }),
    );
    expect(Number(log?.quota)).toBe(quota);
    expect((await consumeLogs(rig.t, rig.customer.userId)).length).toBe(logsBefore + 1);
  });

  it('relays to SiliconFlow, billing the tokens of its meta', async () => {
    const before = counts();
    let answer: RerankAnswer | undefined;
    const { quota, log } = await spentBy(rig.t, rig.customer, async () => {
      const response = await rerank({
        model: 'BAAI/bge-reranker-v2-m3',
        query: QUERY,
        documents: DOCUMENTS,
        return_documents: true,
        // A rerank answer is one body: `stream` changes nothing.
        stream: true,
        // SiliconFlow's own knob: passed on as sent.
        max_chunks_per_doc: 4,
      });
      expect(response.status).toBe(200);
      answer = response.body;
    });
    expect(reached(before)).toEqual(['siliconFlow']);
    expect(fakes.siliconFlow.last().url).toBe('/v1/rerank');
    expect(fakes.siliconFlow.last().json).toEqual({
      model: 'BAAI/bge-reranker-v2-m3',
      query: QUERY,
      documents: DOCUMENTS,
      return_documents: false,
      max_chunks_per_doc: 4,
    });
    expect(answer?.id).toBe('sf-rerank-1');
    expect(answer?.results.map((result) => result.index)).toEqual([0, 2, 1]);
    expect(answer?.results[1]?.document).toEqual({ text: DOCUMENTS[2] });
    // search_units 0 is no search-unit billing: the tokens are.
    expect(answer?.usage).toEqual({ prompt_tokens: 40, total_tokens: 40 });
    expect(log).toMatchObject({ channel_id: channel.siliconFlow, prompt_tokens: 40 });
    expect(quota).toBe(expectedQuota('BAAI/bge-reranker-v2-m3', SILICONFLOW, { prompt: 40, completion: 0 }));
    expect(Number(log?.quota)).toBe(quota);
  });

  it('relays to Voyage with top_n as top_k, reading its data list', async () => {
    const before = counts();
    let answer: RerankAnswer | undefined;
    const { quota, log } = await spentBy(rig.t, rig.customer, async () => {
      const response = await rerank({ model: 'rerank-2-lite', query: QUERY, documents: DOCUMENTS, top_n: 2 });
      expect(response.status).toBe(200);
      answer = response.body;
    });
    expect(reached(before)).toEqual(['voyage']);
    expect(fakes.voyage.last().json).toEqual({
      model: 'rerank-2-lite',
      query: QUERY,
      documents: DOCUMENTS,
      top_k: 2,
      return_documents: false,
    });
    expect(answer?.results.map((result) => result.index)).toEqual([0, 2]);
    expect(answer?.usage).toEqual({ prompt_tokens: 30, total_tokens: 30 });
    expect(log).toMatchObject({ channel_id: channel.voyage, prompt_tokens: 30 });
    expect(quota).toBe(expectedQuota('rerank-2-lite', VOYAGE, { prompt: 30, completion: 0 }));
    expect(Number(log?.quota)).toBe(quota);
  });

  it('relays to an OpenAI compatible channel at its base URL + /rerank, the model mapped', async () => {
    const before = counts();
    const { quota, log } = await spentBy(rig.t, rig.customer, async () => {
      const response = await rerank({ model: 'bge-reranker-large', query: QUERY, documents: DOCUMENTS });
      expect(response.status).toBe(200);
      expect(response.body.model).toBe('bge-reranker-large');
    });
    expect(reached(before)).toEqual(['compatible']);
    expect(fakes.compatible.last().url).toBe('/v1/rerank');
    expect(fakes.compatible.last().json?.model).toBe('BAAI/bge-reranker-large');
    expect(log).toMatchObject({
      channel_id: channel.compatible,
      model_name: 'bge-reranker-large',
      prompt_tokens: 50,
    });
    expect(Number(log?.quota)).toBe(quota);
    expect(quota).toBeGreaterThan(0);
  });

  it('retries on the next channel of the model when the first fails, billing once', async () => {
    await rig.root.put('/api/option/', { key: 'RetryTimes', value: '1' });
    try {
      const before = counts();
      const logsBefore = (await consumeLogs(rig.t, rig.customer.userId)).length;
      const { quota, log } = await spentBy(rig.t, rig.customer, async () => {
        const response = await rerank({ model: 'rerank-2', query: QUERY, documents: DOCUMENTS });
        expect(response.status).toBe(200);
      });
      expect(reached(before)).toEqual(['voyage', 'flaky']);
      expect(log).toMatchObject({ channel_id: channel.voyage, model_name: 'rerank-2', prompt_tokens: 30 });
      expect(quota).toBe(expectedQuota('rerank-2', VOYAGE, { prompt: 30, completion: 0 }));
      expect(Number(log?.quota)).toBe(quota);
      expect((await consumeLogs(rig.t, rig.customer.userId)).length).toBe(logsBefore + 1);
    } finally {
      await rig.root.put('/api/option/', { key: 'RetryTimes', value: '0' });
    }
  });

  /** A Jina rerank call, and whether it was refunded and logged. */
  async function jinaRerankRefunded() {
    let response: Awaited<ReturnType<typeof rerank>> | undefined;
    const { refunded, logged } = await expectRefunded(rig.t, rig.customer, async () => {
      response = await rerank({
        model: 'jina-reranker-v2-base-multilingual',
        query: QUERY,
        documents: DOCUMENTS,
      });
    });
    return { response, refunded, logged };
  }

  it("answers the provider's error in OpenAI's shape, charging nothing", async () => {
    fakes.jina.use(jinaRerankHandler({ key: 'jina-key', failWith: 422 }));
    try {
      const { response, refunded, logged } = await jinaRerankRefunded();
      expect(response?.status).toBe(422);
      expect(response?.body.error?.message).toContain('the fake fails with 422');
      expect(refunded).toBe(true);
      expect(logged).toBe(false);
    } finally {
      fakes.jina.use(jinaRerankHandler({ key: 'jina-key' }));
    }
  });

  it('takes an answer that ranks a document the request does not have for a bad one, charging nothing', async () => {
    fakes.jina.use((_request, res) =>
      sendJson(res, 200, {
        model: 'x',
        usage: { total_tokens: 9 },
        results: [{ index: 3, relevance_score: 0.9 }],
      }),
    );
    try {
      const { response, refunded, logged } = await jinaRerankRefunded();
      expect(response?.status).toBe(502);
      expect(refunded && !logged).toBe(true);
    } finally {
      fakes.jina.use(jinaRerankHandler({ key: 'jina-key' }));
    }
  });

  it('refuses a rerank model on a channel type that does not rerank', async () => {
    const before = counts();
    const response = await rerank({ model: 'gpt-reranker', query: QUERY, documents: DOCUMENTS });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'unsupported_mode' });
    expect(reached(before)).toEqual([]);
  });

  it.each([
    ['no query', { documents: DOCUMENTS }, 'query'],
    ['an empty query', { query: '', documents: DOCUMENTS }, 'query'],
    ['a query that is no string', { query: { text: QUERY }, documents: DOCUMENTS }, 'query'],
    ['no documents', { query: QUERY }, 'documents'],
    ['empty documents', { query: QUERY, documents: [] }, 'documents'],
    ['documents as one string', { query: QUERY, documents: 'Paris' }, 'documents'],
    ['a number as a document', { query: QUERY, documents: ['Paris', 7] }, 'documents'],
    [
      'a deep object as a document',
      { query: QUERY, documents: [{ text: { a: { b: { c: 'x' } } } }] },
      'documents',
    ],
    ['too many documents', { query: QUERY, documents: Array.from({ length: 1001 }, () => 'x') }, 'documents'],
    ['a fractional top_n', { query: QUERY, documents: DOCUMENTS, top_n: 1.5 }, 'top_n'],
    ['top_n as a string', { query: QUERY, documents: DOCUMENTS, top_n: '2' }, 'top_n'],
    ['top_n of 0', { query: QUERY, documents: DOCUMENTS, top_n: 0 }, 'top_n'],
    [
      'return_documents as a string',
      { query: QUERY, documents: DOCUMENTS, return_documents: 'yes' },
      'return_documents',
    ],
    [
      'a negative max_tokens_per_doc',
      { query: QUERY, documents: DOCUMENTS, max_tokens_per_doc: -1 },
      'max_tokens_per_doc',
    ],
  ])('answers %s with a 400 naming the field, before any upstream call', async (_name, fields, param) => {
    const before = counts();
    const { refunded, logged } = await expectRefunded(rig.t, rig.customer, async () => {
      const response = await rerank({ model: 'rerank-v3.5', ...fields });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'invalid_rerank_request', param });
    });
    expect(reached(before)).toEqual([]);
    expect(refunded && !logged).toBe(true);
  });

  it('answers a huge documents array, a deeply nested body and a body that is no JSON with a 400', async () => {
    const before = counts();
    const huge = await rerank({
      model: 'rerank-v3.5',
      query: QUERY,
      documents: Array.from({ length: 200_000 }, () => ''),
    });
    expect(huge.status).toBe(400);
    const deep = `{"model":"rerank-v3.5","query":"q","documents":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const nested = await rerank(deep);
    expect(nested.status).toBe(400);
    const broken = await rerank('{"model":"rerank-v3.5","query":');
    expect(broken.status).toBe(400);
    // Refused before anything is held: the caller who cannot pay gets the 400 too.
    const form = new FormData();
    form.set('model', 'rerank-v3.5');
    form.set('query', QUERY);
    const multipart = await fetch(`${rig.t.baseUrl}/v1/rerank`, {
      method: 'POST',
      headers: { authorization: `Bearer ${poor.token.key}` },
      body: form,
    });
    expect(multipart.status).toBe(400);
    expect(((await multipart.json()) as RerankAnswer).error?.code).toBe('invalid_rerank_request');
    expect(reached(before)).toEqual([]);
  });

  it('refuses a caller who cannot pay before calling the provider', async () => {
    const before = counts();
    const response = await rerank(
      { model: 'rerank-v3.5', query: QUERY, documents: DOCUMENTS },
      poor.token.key,
    );
    expect(response.status).toBe(403);
    expect(response.body.error?.code).toBe('insufficient_user_quota');
    // The body is checked before anything is held: a wrong one is a 400 whatever the balance.
    const wrong = await rerank({ model: 'rerank-v3.5', query: QUERY, documents: [] }, poor.token.key);
    expect(wrong.status).toBe(400);
    expect(reached(before)).toEqual([]);
  });

  it("serves Cohere's own SDK, v1 and v2 clients", async () => {
    fakes.cohere.use(cohereRerankHandler({ key: 'co-key', billed: 1 }));
    const v1 = new CohereClient({ token: rig.customer.token.key, baseUrl: rig.t.baseUrl });
    const { quota, log } = await spentBy(rig.t, rig.customer, async () => {
      const answer = await v1.rerank({
        model: 'rerank-v3.5',
        query: QUERY,
        documents: DOCUMENTS,
        topN: 2,
        returnDocuments: true,
      });
      expect(answer.results.map((result) => [result.index, result.document?.text])).toEqual([
        [0, DOCUMENTS[0]],
        [2, DOCUMENTS[2]],
      ]);
    });
    expect(quota).toBe(1000);
    expect(log).toMatchObject({ prompt_tokens: 1000 });
    const v2 = new CohereClientV2({ token: rig.customer.token.key, baseUrl: rig.t.baseUrl });
    const answer = await v2.rerank({ model: 'rerank-v3.5', query: QUERY, documents: DOCUMENTS, topN: 1 });
    expect(answer.results).toEqual([{ index: 0, relevanceScore: expect.any(Number) }]);
  });
});
