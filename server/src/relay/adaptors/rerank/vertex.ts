import { RelayError } from '../../errors';
import { asObject, numberOf } from '../../json-value';
import { answerObject, missing } from '../answer-check';
import { parseError } from '../gemini/errors';
import type { Adaptor, RelayCall } from '../types';
import { vertexSettingsOf } from '../vertex/credentials';
import { vertexTokens } from '../vertex/token';
import { rerankAnswerOf, searchUnitsOf } from './answer';
import { readRerankRequest } from './rerank-request';

/** The most records one ranking call may carry (Google's limit). */
const RANKING_RECORD_LIMIT = 200;

const noStream = (): never => {
  throw RelayError.invalid('Rerank calls do not stream', 'invalid_rerank_request', { param: 'stream' });
};

/** The ranking answer's `{records:[{id, score}]}`, ids being the documents' indexes → Cohere's shape. */
function convertResponse(call: RelayCall, body: Buffer) {
  const answer = answerObject(body);
  if (answer instanceof RelayError) return answer;
  // Google leaves out an empty list (every record under topN's cut is still listed, so only none is).
  if (answer.records !== undefined && !Array.isArray(answer.records)) return missing('"records" list');
  const request = readRerankRequest(call.body ?? {});
  const records = Array.isArray(answer.records) ? answer.records : [];
  const results = records.map((item) => {
    const entry = asObject(item);
    const id = typeof entry?.id === 'string' && /^\d{1,4}$/.test(entry.id) ? Number(entry.id) : undefined;
    return { index: id, relevance_score: numberOf(entry?.score) ?? 0 };
  });
  results.sort((a, b) => b.relevance_score - a.relevance_score);
  const searchUnits = searchUnitsOf(request.documents.length);
  return rerankAnswerOf(
    { results, meta: { billed_units: { search_units: searchUnits } } },
    request,
    call.requestedModel,
  );
}

/**
 * Rerank on a Vertex AI channel: Google's Discovery Engine ranking API (the project's
 * default_ranking_config, location global), with the channel's service-account token. The channel's
 * base URL, when set, replaces the Discovery Engine host.
 */
export const vertexRerankAdaptor: Adaptor = {
  async buildRequest(call) {
    const { query, documents, topN } = readRerankRequest(call.body ?? {});
    if (documents.length > RANKING_RECORD_LIMIT) {
      throw RelayError.invalid(
        `Vertex AI ranks at most ${RANKING_RECORD_LIMIT} documents a call`,
        'invalid_rerank_request',
        { param: 'documents' },
      );
    }
    const { projectId, account } = vertexSettingsOf(call);
    const token = await vertexTokens.get(call.channel.id, account);
    const base = call.baseUrl || 'https://discoveryengine.googleapis.com';
    return {
      url: `${base}/v1/projects/${encodeURIComponent(projectId)}/locations/global/rankingConfigs/default_ranking_config:rank`,
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        authorization: `Bearer ${token}`,
      },
      body: JSON.stringify({
        model: call.upstreamModel,
        query,
        records: documents.map((content, index) => ({ id: String(index), content })),
        ...(topN === undefined ? {} : { topN }),
        ignoreRecordDetailsInResponse: true,
      }),
    };
  },
  convertResponse,
  streamTranslator: noStream,
  parseError,
};
