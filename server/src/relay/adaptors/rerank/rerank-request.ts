import { RelayError } from '../../errors';
import { asObject, type Json } from '../../json-value';

/** The most documents one rerank call may carry (Cohere's and Voyage's own limit). */
export const RERANK_DOCUMENT_LIMIT = 1000;

/** A client's rerank request, checked: the shape Cohere and Jina share, documents as plain texts. */
export interface RerankRequest {
  query: string;
  documents: string[];
  topN?: number;
  returnDocuments: boolean;
  maxTokensPerDoc?: number;
}

const invalid = (message: string, param: string) =>
  RelayError.invalid(message, 'invalid_rerank_request', { param });

/** A document is a text, or Jina's `{text}` object (other fields of it are ignored). */
function documentText(value: unknown, index: number): string {
  if (typeof value === 'string') return value;
  const text = asObject(value)?.text;
  if (typeof text === 'string') return text;
  throw invalid(`documents[${index}] must be a string or an object with a string "text"`, 'documents');
}

function positiveInteger(body: Json, field: string): number | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw invalid(`${field} must be a positive integer`, field);
  }
  return value;
}

/** Reads and checks a rerank body; a RelayError (400) names the first field that is wrong. */
export function readRerankRequest(body: Json): RerankRequest {
  if (typeof body.query !== 'string' || body.query === '') {
    throw invalid('query must be a non-empty string', 'query');
  }
  const { documents } = body;
  if (!Array.isArray(documents) || documents.length === 0) {
    throw invalid('documents must be a non-empty array', 'documents');
  }
  if (documents.length > RERANK_DOCUMENT_LIMIT) {
    throw invalid(`documents may hold at most ${RERANK_DOCUMENT_LIMIT} items`, 'documents');
  }
  const returnDocuments = body.return_documents ?? false;
  if (typeof returnDocuments !== 'boolean')
    throw invalid('return_documents must be a boolean', 'return_documents');
  const request: RerankRequest = {
    query: body.query,
    documents: documents.map(documentText),
    returnDocuments,
  };
  const topN = positiveInteger(body, 'top_n');
  if (topN !== undefined) request.topN = topN;
  const maxTokensPerDoc = positiveInteger(body, 'max_tokens_per_doc');
  if (maxTokensPerDoc !== undefined) request.maxTokensPerDoc = maxTokensPerDoc;
  return request;
}
