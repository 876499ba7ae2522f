import { OPTION_KEYS } from '@switchyard/contract/options';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiPath } from '../src/api/openapi/document';
import { startTestApp, type TestApp } from './harness';

/** Routes the reference leaves out on purpose, each with its reason. */
const EXCLUDED: Array<{ route: RegExp; reason: string }> = [
  {
    route: /^OPTIONS /,
    reason: 'CORS preflights answered 204 for any path under /v1, /v1beta and /dashboard',
  },
  {
    route: /^GET \/(?!api\/|v1\/|v1beta\/|dashboard\/|healthz$|readyz$|metrics$)/,
    reason: "the console's built files (one route each when web/dist is there), not an API",
  },
];

interface Document {
  openapi: string;
  info: { description: string; 'x-description-zh'?: string };
  tags: Array<{ name: string; 'x-name-zh'?: string }>;
  paths: Record<
    string,
    Record<
      string,
      {
        summary: string;
        'x-summary-zh'?: string;
        requestBody?: { content: Record<string, { schema: object }> };
      }
    >
  >;
  components: { schemas: Record<string, object> };
}

/** Request bodies the other suites send (tokens, users, redemptions, channels, options, the relay's clients). */
const EXAMPLES: Array<[string, string, unknown]> = [
  ['POST', '/api/user/login', { username: 'root', password: '123456' }],
  ['POST', '/v1/videos', { model: 'sora-2', prompt: 'a fox', seconds: '4', size: '720x1280' }],
  ['POST', '/api/user/', { username: 'hank', password: 'password123' }],
  ['POST', '/api/user/', { username: 'jack', password: 'password123', display_name: 'Jack' }],
  ['POST', '/api/user/manage', { username: 'carol', action: 'promote' }],
  ['POST', '/api/topup', { user_id: 3, quota: 500, remark: 'gift' }],
  ['POST', '/api/token/', { remain_quota: 500000, expired_time: -1, name: 'ops' }],
  ['PUT', '/api/token/', { id: 1, name: 'ops2', remain_quota: 100, expired_time: -1 }],
  ['PUT', '/api/token/', { id: 1, status: 2 }],
  ['POST', '/api/redemption/', { name: 'batch', quota: 1000, count: 25 }],
  ['POST', '/api/user/topup', { key: '0123456789abcdef0123456789abcdef' }],
  [
    'POST',
    '/api/channel/',
    {
      type: 1,
      name: 'primary',
      key: 'sk-one',
      base_url: 'http://127.0.0.1:9',
      models: 'gpt-3.5-turbo,gpt-4',
      group: 'default',
    },
  ],
  ['PUT', '/api/channel/', { id: 1, config: '{"region":"ap-guangzhou"}' }],
  ['PUT', '/api/option/', { key: 'SystemName', value: 'Audited' }],
  [
    'POST',
    '/v1/chat/completions',
    {
      model: 'gpt-3.5-turbo',
      messages: [{ role: 'user', content: 'Say hello' }],
      x_vendor_flag: { keep: true },
    },
  ],
  ['POST', '/v1/embeddings', { model: 'text-embedding-3-small', input: ['a', 'b'] }],
  [
    'POST',
    '/v1/rerank',
    { model: 'rerank-v3.5', query: 'q', documents: ['a', { text: 'b' }], top_n: 1, return_documents: true },
  ],
  [
    'POST',
    '/v1/messages',
    {
      model: 'gpt-4o',
      max_tokens: 256,
      system: 'Answer in French.',
      messages: [{ role: 'user', content: 'Hello world' }],
    },
  ],
  [
    'POST',
    '/v1/responses',
    {
      model: 'gpt-4o',
      input: [
        { role: 'developer', content: 'Be terse.' },
        { role: 'user', content: [{ type: 'input_text', text: 'What is this?' }] },
      ],
    },
  ],
  [
    'POST',
    '/v1beta/models/*',
    { contents: [{ role: 'user', parts: [{ text: 'Who wrote the first program?' }] }] },
  ],
];

/** Bodies the server refuses: the document's schemas refuse them too. */
const REFUSED: Array<[string, string, unknown]> = [
  ['POST', '/api/user/manage', { username: 'carol', action: 'explode' }],
  ['POST', '/api/redemption/', { name: 'ok', quota: 1, count: 101 }],
  ['POST', '/v1/chat/completions', { model: 'gpt-4o' }],
  ['POST', '/v1/messages', { model: 'gpt-4o', messages: [] }],
  ['POST', '/v1/rerank', { model: 'rerank-v3.5', query: 'q', documents: [] }],
  ['POST', '/v2/rerank', { model: 'rerank-v3.5', query: 'q', documents: ['a'], top_n: 1.5 }],
];

describe('OpenAPI document', () => {
  let t: TestApp;
  let document: Document;
  beforeAll(async () => {
    // With a metrics token, so /metrics is registered too.
    t = await startTestApp({ env: { METRICS_TOKEN: 'openapi-test-token' } });
    const response = await t.client().get<Document>('/api/openapi.json');
    expect(response.status).toBe(200);
    document = response.body;
  });
  afterAll(() => t.close());

  it('is OpenAPI 3.1 and public', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths).length).toBeGreaterThan(50);
  });

  it('names every option PUT /api/option/ takes, the online top-up, OpenID Connect and price list ones too', () => {
    const input = document.components.schemas.OptionInput as { properties: { key: { enum: string[] } } };
    expect(input.properties.key.enum).toEqual(OPTION_KEYS);
    expect(input.properties.key.enum).toEqual(
      expect.arrayContaining(['StripeEnabled', 'EPayKey', 'OidcIssuer', 'PublicPricingEnabled']),
    );
  });

  it('lists every route the server registers, with its method, and none it does not', () => {
    const registered = [...new Set(t.app.routes)].filter(
      (route) => !EXCLUDED.some((rule) => rule.route.test(route)),
    );
    const missing = registered.filter((route) => {
      const [method = '', url = ''] = route.split(' ');
      return document.paths[openApiPath(url)]?.[method.toLowerCase()] === undefined;
    });
    expect(missing).toEqual([]);
    const documented = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const served = new Set(
      registered.map((route) => route.replace(/ (.*)$/, (_all, url: string) => ` ${openApiPath(url)}`)),
    );
    expect(documented.filter((operation) => !served.has(operation))).toEqual([]);
  });

  it('words its introduction, groups and summaries in Chinese too, for the Chinese console', () => {
    const chinese = /[\u4e00-\u9fff]/;
    expect(document.info['x-description-zh']).toMatch(chinese);
    expect(document.tags.filter((tag) => !tag['x-name-zh'])).toEqual([]);
    expect(document.tags.find((tag) => tag.name === 'Account')?.['x-name-zh']).toBe('账户');
    const untranslated = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([, operation]) => !chinese.test(operation['x-summary-zh'] ?? '') || !operation.summary)
        .map(([method]) => `${method} ${path}`),
    );
    expect(untranslated).toEqual([]);
  });

  let ajv: Ajv2020 | undefined;
  /** The operation's request schema, its references resolved in the document (compiled once). */
  const validatorFor = (method: string, route: string) => {
    if (!ajv) {
      ajv = new Ajv2020({ strict: false, validateFormats: false });
      ajv.addSchema({ $id: 'openapi', components: document.components });
    }
    const operation = document.paths[openApiPath(route)]?.[method.toLowerCase()];
    const schema = operation?.requestBody?.content['application/json']?.schema;
    expect(schema, `${method} ${route}`).toBeDefined();
    return ajv.compile(
      JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/')),
    );
  };

  it.each(EXAMPLES)('accepts the example request %s %s', (method, route, body) => {
    const validate = validatorFor(method, route);
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
  });

  it.each(REFUSED)('refuses the bad request %s %s', (method, route, body) => {
    expect(validatorFor(method, route)(body)).toBe(false);
  });
});
