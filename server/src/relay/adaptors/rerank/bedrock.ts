import { RelayError } from '../../errors';
import { asObject, type Json, numberOf } from '../../json-value';
import { answerObject, missing } from '../answer-check';
import { awsCredentialsOf } from '../aws/credentials';
import { parseError } from '../aws/errors';
import { signedPost } from '../aws/sign';
import type { Adaptor, RelayCall } from '../types';
import { rerankAnswerOf, searchUnitsOf } from './answer';
import { readRerankRequest } from './rerank-request';

const noStream = (): never => {
  throw RelayError.invalid('Rerank calls do not stream', 'invalid_rerank_request', { param: 'stream' });
};

/** Bedrock Agent Runtime's Rerank body: the query and documents as inline texts, the model by its ARN. */
function bedrockRerankBody(call: RelayCall, region: string): Json {
  const { query, documents, topN } = readRerankRequest(call.body ?? {});
  return {
    queries: [{ type: 'TEXT', textQuery: { text: query } }],
    sources: documents.map((text) => ({
      type: 'INLINE',
      inlineDocumentSource: { type: 'TEXT', textDocument: { text } },
    })),
    rerankingConfiguration: {
      type: 'BEDROCK_RERANKING_MODEL',
      bedrockRerankingConfiguration: {
        ...(topN === undefined ? {} : { numberOfResults: Math.min(topN, documents.length) }),
        modelConfiguration: {
          modelArn: `arn:aws:bedrock:${region}::foundation-model/${call.upstreamModel}`,
        },
      },
    },
  };
}

/**
 * `{results:[{index, relevanceScore}]}` → Cohere's shape, billed in search units (Bedrock prices a
 * query of up to 100 documents, as Cohere does).
 */
function convertResponse(call: RelayCall, body: Buffer) {
  const answer = answerObject(body);
  if (answer instanceof RelayError) return answer;
  if (!Array.isArray(answer.results)) return missing('"results" list');
  const request = readRerankRequest(call.body ?? {});
  const results = answer.results.map((item) => {
    const entry = asObject(item);
    return { index: entry?.index, relevance_score: numberOf(entry?.relevanceScore) };
  });
  results.sort((a, b) => (b.relevance_score ?? 0) - (a.relevance_score ?? 0));
  const searchUnits = searchUnitsOf(request.documents.length);
  return rerankAnswerOf(
    { results, meta: { billed_units: { search_units: searchUnits } } },
    request,
    call.requestedModel,
  );
}

/**
 * Rerank on an AWS Bedrock channel: Bedrock Agent Runtime's `POST /rerank`, signed with SigV4 (service
 * `bedrock`) from the channel config, at the channel's base URL when set.
 */
export const bedrockRerankAdaptor: Adaptor = {
  buildRequest(call) {
    const credentials = awsCredentialsOf(call);
    const base = call.baseUrl || `https://bedrock-agent-runtime.${credentials.region}.amazonaws.com`;
    const body = JSON.stringify(bedrockRerankBody(call, credentials.region));
    return signedPost(`${base}/rerank`, body, 'application/json', credentials);
  },
  convertResponse,
  streamTranslator: noStream,
  parseError,
};
