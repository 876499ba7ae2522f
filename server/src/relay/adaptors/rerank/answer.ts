import { RelayError } from '../../errors';
import { asObject, type Json, numberOf } from '../../json-value';
import { answerObject, missing } from '../answer-check';
import type { ConvertedResponse, Usage } from '../types';
import type { RerankRequest } from './rerank-request';

/** One search unit (Cohere's billing unit: a query with up to 100 documents) bills as this many prompt tokens. */
export const SEARCH_UNIT_TOKENS = 1000;

interface RerankResult {
  index: number;
  relevance_score: number;
  document?: { text: string };
}

const positive = (value: unknown): number | undefined => {
  const number = numberOf(value);
  return number !== undefined && number > 0 ? number : undefined;
};

/**
 * What the call is billed for: Cohere's search units when it reports them (each SEARCH_UNIT_TOKENS
 * prompt tokens), else the tokens the provider counted: Jina's and Voyage's `usage.total_tokens`,
 * SiliconFlow's `meta.tokens.input_tokens`. Nothing reported: the relay counts the texts itself.
 */
function rerankUsage(answer: Json): { usage?: Usage; searchUnits?: number } {
  const usage = asObject(answer.usage);
  const meta = asObject(answer.meta);
  const billed = asObject(meta?.billed_units);
  const searchUnits = positive(billed?.search_units);
  if (searchUnits !== undefined) {
    return {
      usage: { prompt_tokens: Math.ceil(searchUnits) * SEARCH_UNIT_TOKENS, completion_tokens: 0 },
      searchUnits,
    };
  }
  const tokens =
    positive(usage?.total_tokens) ??
    positive(usage?.prompt_tokens) ??
    positive(asObject(meta?.tokens)?.input_tokens) ??
    positive(billed?.input_tokens);
  return tokens === undefined ? {} : { usage: { prompt_tokens: Math.ceil(tokens), completion_tokens: 0 } };
}

function resultOf(item: unknown, request: RerankRequest): RerankResult | undefined {
  const entry = asObject(item);
  const index = entry?.index;
  const score = numberOf(entry?.relevance_score);
  if (typeof index !== 'number' || !Number.isInteger(index) || score === undefined) return undefined;
  const text = request.documents[index];
  if (text === undefined) return undefined;
  return request.returnDocuments
    ? { index, relevance_score: score, document: { text } }
    : { index, relevance_score: score };
}

/**
 * A provider's rerank answer (`results`, or Voyage's `data`) in the gateway's one shape:
 * `{id?, object, model, results:[{index, relevance_score, document?}], usage}`. A result that names
 * no document of the request makes the answer a bad one (not billed, tried elsewhere).
 */
export function rerankAnswer(
  body: Buffer,
  request: RerankRequest,
  model: string,
): ConvertedResponse | RelayError {
  const answer = answerObject(body);
  if (answer instanceof RelayError) return answer;
  return rerankAnswerOf(answer, request, model);
}

/** The search units of a call on `documents` documents, for providers that bill per query of up to 100. */
export const searchUnitsOf = (documents: number): number => Math.max(1, Math.ceil(documents / 100));

/** An answer already in Cohere's shape (`results`, or Voyage's `data`) → the gateway's. */
export function rerankAnswerOf(
  answer: Json,
  request: RerankRequest,
  model: string,
): ConvertedResponse | RelayError {
  const list = Array.isArray(answer.results)
    ? answer.results
    : Array.isArray(answer.data)
      ? answer.data
      : undefined;
  if (!list) return missing('"results" list');
  const results: RerankResult[] = [];
  for (const item of list) {
    const result = resultOf(item, request);
    if (!result) return missing('result with an index of a document and a relevance score');
    results.push(result);
  }
  const { usage, searchUnits } = rerankUsage(answer);
  const tokens = usage?.prompt_tokens;
  const json: Json = {
    ...(typeof answer.id === 'string' ? { id: answer.id } : {}),
    object: 'rerank',
    model,
    results,
    ...(usage
      ? {
          usage: {
            prompt_tokens: tokens,
            total_tokens: tokens,
            ...(searchUnits === undefined ? {} : { search_units: searchUnits }),
          },
        }
      : {}),
  };
  return {
    body: JSON.stringify(json),
    json,
    contentType: 'application/json',
    text: '',
    ...(usage ? { usage } : {}),
  };
}
