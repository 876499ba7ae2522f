import type http from 'node:http';
import { type FakeHandler, type RecordedRequest, sendJson } from './http-fake';

/**
 * The rerank APIs of Cohere (v2), Jina, SiliconFlow and Voyage as their documentation describes
 * them: each checks its own request fields and answers in its own shape, with its own usage report
 * and error body. Scores are the share of the query's words a document holds, so the order is known.
 */

export interface FakeRerankOptions {
  key: string;
  /** The tokens (Jina, SiliconFlow, Voyage) or search units (Cohere) the answer reports. */
  billed?: number;
  /** Answer every call with this status and the provider's error body. */
  failWith?: number;
}

const words = (text: string) => text.toLowerCase().split(/\W+/).filter(Boolean);

/** Documents ranked by the share of the query's words they hold, best first, cut to `top`. */
export function ranked(query: string, documents: string[], top: number | undefined) {
  const wanted = new Set(words(query));
  const scored = documents.map((document, index) => {
    const hits = words(document).filter((word) => wanted.has(word)).length;
    return { index, relevance_score: Number((hits / Math.max(wanted.size, 1) / 2 + 0.01).toFixed(4)) };
  });
  scored.sort((a, b) => b.relevance_score - a.relevance_score || a.index - b.index);
  return scored.slice(0, top ?? scored.length);
}

const isTexts = (value: unknown): value is string[] =>
  Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'string');

type Reject = (status: number, message: string) => void;

/** The checks every provider makes: path, bearer key, then the provider's own body rules. */
function rerankFake(
  path: string,
  options: FakeRerankOptions,
  errorBody: (message: string) => unknown,
  answer: (body: Record<string, unknown>, reject: Reject, res: http.ServerResponse) => void,
): FakeHandler {
  return (request: RecordedRequest, res: http.ServerResponse) => {
    const reject: Reject = (status, message) => sendJson(res, status, errorBody(message));
    if (request.method !== 'POST' || request.url !== path) return reject(404, `no route ${request.url}`);
    if (request.headers.authorization !== `Bearer ${options.key}`) return reject(401, 'invalid api token');
    if (options.failWith) return reject(options.failWith, `the fake fails with ${options.failWith}`);
    const body = request.json;
    if (
      !body ||
      typeof body.query !== 'string' ||
      !isTexts(body.documents) ||
      typeof body.model !== 'string'
    ) {
      return reject(400, 'model, query and documents (texts) are required');
    }
    answer(body, reject, res);
  };
}

const topOf = (value: unknown) => (typeof value === 'number' ? value : undefined);

/** Cohere's POST /v2/rerank: `{id, results:[{index, relevance_score}], meta:{billed_units:{search_units}}}`. */
export function cohereRerankHandler(options: FakeRerankOptions): FakeHandler {
  return rerankFake(
    '/v2/rerank',
    options,
    (message) => ({ id: 'err-1', message }),
    (body, reject, res) => {
      if ('return_documents' in body) return reject(400, 'invalid request: unknown field return_documents');
      const results = ranked(body.query as string, body.documents as string[], topOf(body.top_n));
      sendJson(res, 200, {
        id: 'co-rerank-1',
        results,
        meta: { api_version: { version: '2' }, billed_units: { search_units: options.billed ?? 1 } },
      });
    },
  );
}

/** Jina's POST /v1/rerank: `{model, usage:{total_tokens}, results:[{index, document, relevance_score}]}`. */
export function jinaRerankHandler(options: FakeRerankOptions): FakeHandler {
  return rerankFake(
    '/v1/rerank',
    options,
    (detail) => ({ detail }),
    (body, _reject, res) => {
      const documents = body.documents as string[];
      const results = ranked(body.query as string, documents, topOf(body.top_n)).map((result) => ({
        ...result,
        ...(body.return_documents === false ? {} : { document: { text: documents[result.index] } }),
      }));
      sendJson(res, 200, {
        model: body.model,
        usage: { total_tokens: options.billed ?? 50 },
        results,
      });
    },
  );
}

/** SiliconFlow's POST /v1/rerank: Jina's shape, usage in `meta.tokens` (search_units 0). */
export function siliconFlowRerankHandler(options: FakeRerankOptions): FakeHandler {
  return rerankFake(
    '/v1/rerank',
    options,
    (message) => ({ code: 20015, message, data: null }),
    (body, _reject, res) => {
      const documents = body.documents as string[];
      const results = ranked(body.query as string, documents, topOf(body.top_n)).map((result) => ({
        ...(body.return_documents === true ? { document: { text: documents[result.index] } } : {}),
        ...result,
      }));
      const tokens = options.billed ?? 40;
      sendJson(res, 200, {
        id: 'sf-rerank-1',
        results,
        meta: {
          billed_units: { input_tokens: tokens, output_tokens: 0, search_units: 0, classifications: 0 },
          tokens: { input_tokens: tokens, output_tokens: 0 },
        },
      });
    },
  );
}

/** Voyage's POST /v1/rerank: `top_k`, `{object:"list", data:[{relevance_score, index}], usage:{total_tokens}}`. */
export function voyageRerankHandler(options: FakeRerankOptions): FakeHandler {
  return rerankFake(
    '/v1/rerank',
    options,
    (detail) => ({ detail }),
    (body, reject, res) => {
      if ('top_n' in body) return reject(400, 'Unknown argument: top_n');
      const documents = body.documents as string[];
      const results = ranked(body.query as string, documents, topOf(body.top_k)).map((result) => ({
        ...result,
        ...(body.return_documents === true ? { document: documents[result.index] } : {}),
      }));
      sendJson(res, 200, {
        object: 'list',
        data: results,
        model: body.model,
        usage: { total_tokens: options.billed ?? 30 },
      });
    },
  );
}
