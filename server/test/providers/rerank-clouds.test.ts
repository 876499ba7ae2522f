import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeBedrock } from '../fakes/bedrock';
import { HttpFake } from '../fakes/http-fake';
import { FakeVertex, TestServiceAccount } from '../fakes/vertex';
import { createChannel } from '../relay-setup';
import { providerRig } from './provider-rig';
import { expectedQuota, expectRefunded, spentBy } from './quota-check';

const AWS = 33;
const VERTEX = 42;
const IDENTITY = {
  region: 'us-west-2',
  accessKeyId: 'AKIAFAKERERANK000001',
  secretAccessKey: 'fakeSecretAccessKey/Rerank+0123456789abcdef',
};
const PROJECT = 'switchyard-rank';
const account = new TestServiceAccount(PROJECT);

const DOCUMENTS = [
  'Bananas are yellow.',
  'The capital of France is Paris.',
  'Paris hosts the Louvre, the most visited museum in France.',
];
const QUERY = 'What is the capital of France?';

interface RerankAnswer {
  object?: string;
  model?: string;
  results: Array<{ index: number; relevance_score: number; document?: { text: string } }>;
  usage?: { prompt_tokens: number; total_tokens: number; search_units?: number };
  error?: { message: string };
}

describe('POST /v1/rerank on AWS Bedrock and Vertex AI channels', () => {
  const bedrock = new FakeBedrock(IDENTITY);
  const vertex = new FakeVertex(account, PROJECT, 'us-central1');
  const google = new HttpFake(vertex.handler);
  const rig = providerRig({
    fake: () => new HttpFake(bedrock.handler).start(),
    channels: [
      {
        name: 'bedrock-rerank',
        type: AWS,
        key: '',
        models: 'cohere.rerank-v3-5:0,amazon.rerank-v1:0',
        config: JSON.stringify({
          region: IDENTITY.region,
          ak: IDENTITY.accessKeyId,
          sk: IDENTITY.secretAccessKey,
        }),
      },
    ],
    customer: 'cloudrerank',
  });

  beforeAll(async () => {
    await google.start();
    vertex.url = google.url;
    await createChannel(rig.root, {
      name: 'vertex-rerank',
      type: VERTEX,
      key: '',
      base_url: google.url,
      models: 'semantic-ranker-default@latest',
      config: JSON.stringify({
        region: 'us-central1',
        vertex_ai_project_id: PROJECT,
        vertex_ai_adc: account.adc(`${google.url}/token`),
      }),
    });
  });
  afterAll(() => google.close());

  const rerank = async (body: unknown) => {
    const response = await fetch(`${rig.t.baseUrl}/v1/rerank`, {
      method: 'POST',
      headers: { authorization: `Bearer ${rig.customer.token.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as RerankAnswer };
  };

  it("signs Bedrock Agent Runtime's Rerank with SigV4 and bills one search unit a query of 100 documents", async () => {
    let answer: RerankAnswer | undefined;
    const { quota, log } = await spentBy(rig.t, rig.customer, async () => {
      const response = await rerank({
        model: 'cohere.rerank-v3-5:0',
        query: QUERY,
        documents: DOCUMENTS,
        top_n: 2,
        return_documents: true,
      });
      expect(response.status).toBe(200);
      answer = response.body;
    });
    const upstream = rig.fake.last();
    expect(upstream.url).toBe('/rerank');
    // The fake recomputed the signature with the secret: this request is among the verified ones.
    expect(bedrock.verified.at(-1)).toBe(upstream);
    expect(String(upstream.headers.authorization)).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIAFAKERERANK000001\/\d{8}\/us-west-2\/bedrock\/aws4_request, /,
    );
    expect(upstream.json).toEqual({
      queries: [{ type: 'TEXT', textQuery: { text: QUERY } }],
      sources: DOCUMENTS.map((text) => ({
        type: 'INLINE',
        inlineDocumentSource: { type: 'TEXT', textDocument: { text } },
      })),
      rerankingConfiguration: {
        type: 'BEDROCK_RERANKING_MODEL',
        bedrockRerankingConfiguration: {
          numberOfResults: 2,
          modelConfiguration: {
            modelArn: 'arn:aws:bedrock:us-west-2::foundation-model/cohere.rerank-v3-5:0',
          },
        },
      },
    });
    expect(answer).toEqual({
      object: 'rerank',
      model: 'cohere.rerank-v3-5:0',
      results: [
        { index: 1, relevance_score: expect.any(Number), document: { text: DOCUMENTS[1] } },
        { index: 2, relevance_score: expect.any(Number), document: { text: DOCUMENTS[2] } },
      ],
      usage: { prompt_tokens: 1000, total_tokens: 1000, search_units: 1 },
    });
    const [first, second] = answer?.results ?? [];
    expect(first!.relevance_score).toBeGreaterThanOrEqual(second!.relevance_score);
    expect(log).toMatchObject({
      model_name: 'cohere.rerank-v3-5:0',
      prompt_tokens: 1000,
      completion_tokens: 0,
    });
    expect(quota).toBe(expectedQuota('cohere.rerank-v3-5:0', AWS, { prompt: 1000, completion: 0 }));
    expect(quota).toBe(1000);
  });

  it("counts 150 documents as two search units on Amazon's reranker, every result mapped back", async () => {
    const documents = Array.from({ length: 150 }, (_, i) =>
      i === 120 ? 'Paris is the capital of France' : `note ${i}`,
    );
    let answer: RerankAnswer | undefined;
    const { quota } = await spentBy(rig.t, rig.customer, async () => {
      const response = await rerank({ model: 'amazon.rerank-v1:0', query: QUERY, documents });
      expect(response.status).toBe(200);
      answer = response.body;
    });
    expect(answer?.results).toHaveLength(150);
    expect(answer?.results[0]?.index).toBe(120);
    expect(answer?.usage).toMatchObject({ search_units: 2, prompt_tokens: 2000 });
    expect(quota).toBe(expectedQuota('amazon.rerank-v1:0', AWS, { prompt: 2000, completion: 0 }));
  });

  it("ranks through Discovery Engine with the service account's token, ids mapped back to indexes", async () => {
    let answer: RerankAnswer | undefined;
    const { quota, log } = await spentBy(rig.t, rig.customer, async () => {
      const response = await rerank({
        model: 'semantic-ranker-default@latest',
        query: QUERY,
        documents: DOCUMENTS.map((text) => ({ text })),
        top_n: 2,
      });
      expect(response.status).toBe(200);
      answer = response.body;
    });
    const upstream = google.last();
    expect(upstream.url).toBe(
      `/v1/projects/${PROJECT}/locations/global/rankingConfigs/default_ranking_config:rank`,
    );
    expect(vertex.issued.has(String(upstream.headers.authorization).replace(/^Bearer /, ''))).toBe(true);
    expect(upstream.json).toEqual({
      model: 'semantic-ranker-default@latest',
      query: QUERY,
      records: DOCUMENTS.map((content, index) => ({ id: String(index), content })),
      topN: 2,
      ignoreRecordDetailsInResponse: true,
    });
    expect(answer?.results).toEqual([
      { index: 1, relevance_score: expect.any(Number) },
      { index: 2, relevance_score: expect.any(Number) },
    ]);
    expect(log).toMatchObject({ model_name: 'semantic-ranker-default@latest', prompt_tokens: 1000 });
    expect(quota).toBe(
      expectedQuota('semantic-ranker-default@latest', VERTEX, { prompt: 1000, completion: 0 }),
    );
  });

  it("refuses more documents than Google ranks, and answers the clouds' errors charging nothing", async () => {
    const before = google.requests.length;
    const tooMany = await rerank({
      model: 'semantic-ranker-default@latest',
      query: QUERY,
      documents: Array.from({ length: 201 }, (_, i) => `doc ${i}`),
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error?.message).toContain('200');
    expect(google.requests.length).toBe(before);

    bedrock.configure({ error: { status: 429, message: 'Too many requests, please wait' } });
    vertex.configure({ error: { status: 400, message: 'Bad record', status_text: 'INVALID_ARGUMENT' } });
    try {
      await expectRefunded(rig.t, rig.customer, async () => {
        const throttled = await rerank({ model: 'amazon.rerank-v1:0', query: QUERY, documents: DOCUMENTS });
        expect(throttled.status).toBe(429);
        expect(throttled.body.error?.message).toContain('Too many requests');
        const refused = await rerank({
          model: 'semantic-ranker-default@latest',
          query: QUERY,
          documents: DOCUMENTS,
        });
        expect(refused.status).toBe(400);
        expect(refused.body.error?.message).toContain('Bad record');
      });
    } finally {
      bedrock.configure({});
      vertex.configure({});
    }
  });
});
