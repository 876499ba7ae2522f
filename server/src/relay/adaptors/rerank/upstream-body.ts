import type { RerankApi } from '@switchyard/contract/channel-types';
import type { Json } from '../../json-value';
import type { RerankRequest } from './rerank-request';

/**
 * The body each rerank API takes. Documents go as texts; none is asked back (the answer's documents
 * are the client's own, by index), so answers stay small.
 */
export function upstreamRerankBody(api: RerankApi, model: string, request: RerankRequest): Json {
  const { query, documents, topN, maxTokensPerDoc } = request;
  switch (api) {
    case 'cohere':
      // Cohere's v2: no return_documents; it cuts each document at max_tokens_per_doc.
      return { model, query, documents, top_n: topN, max_tokens_per_doc: maxTokensPerDoc };
    case 'voyage':
      return { model, query, documents, top_k: topN, return_documents: false };
    case 'jina':
      return { model, query, documents, top_n: topN, return_documents: false };
  }
}
