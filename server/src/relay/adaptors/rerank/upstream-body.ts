import type { RerankApi } from '@switchyard/contract/channel-types';
import type { Json } from '../../json-value';
import type { RerankRequest } from './rerank-request';

/** The rerank APIs that take a Cohere- or Jina-like JSON body (the clouds' have adaptors of their own). */
export type BodyRerankApi = Exclude<RerankApi, 'bedrock' | 'vertex'>;

/** The fields the gateway reads and rewrites; any other goes to Jina-shaped APIs as the client sent it. */
const READ_FIELDS = new Set([
  'model',
  'query',
  'documents',
  'top_n',
  'return_documents',
  'max_tokens_per_doc',
  'stream',
]);

/** The client's own extra fields (SiliconFlow's `max_chunks_per_doc`, together.ai's `rank_fields`, …). */
const otherFields = (body: Json): Json =>
  Object.fromEntries(Object.entries(body).filter(([name]) => !READ_FIELDS.has(name)));

/**
 * The body each rerank API takes. Documents go as texts; none is asked back (the answer's documents
 * are the client's own, by index), so answers stay small. Cohere and Voyage refuse fields they do
 * not know: they get theirs only.
 */
export function upstreamRerankBody(
  api: BodyRerankApi,
  model: string,
  request: RerankRequest,
  clientBody: Json,
): Json {
  const { query, documents, topN, maxTokensPerDoc } = request;
  switch (api) {
    case 'cohere':
      // Cohere's v2: no return_documents; it cuts each document at max_tokens_per_doc.
      return { model, query, documents, top_n: topN, max_tokens_per_doc: maxTokensPerDoc };
    case 'voyage':
      return { model, query, documents, top_k: topN, return_documents: false };
    case 'jina':
      return { ...otherFields(clientBody), model, query, documents, top_n: topN, return_documents: false };
  }
}
