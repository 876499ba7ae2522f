import type { RerankApi } from '@switchyard/contract/channel-types';
import { RelayError } from '../../errors';
import type { Adaptor, RelayCall, UpstreamRequest } from '../types';
import { upstreamError } from '../upstream-error';
import { rerankAnswer } from './answer';
import { readRerankRequest } from './rerank-request';
import { upstreamRerankBody } from './upstream-body';

const rerankRequestOf = (call: RelayCall) => readRerankRequest(call.body ?? {});

/** Rerank answers are whole JSON bodies: there is no stream to translate. */
const noStream = (): never => {
  throw RelayError.invalid('Rerank calls do not stream', 'invalid_rerank_request', { param: 'stream' });
};

/** Cohere's v2 Rerank API, at the channel's base URL + /v2/rerank. */
function cohereRequest(call: RelayCall): UpstreamRequest {
  const body = upstreamRerankBody('cohere', call.upstreamModel, rerankRequestOf(call));
  return {
    url: `${call.baseUrl}/v2/rerank`,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      authorization: `Bearer ${call.apiKey}`,
    },
    body: JSON.stringify(body),
  };
}

/**
 * The rerank adaptor of a type whose catalogue entry names its rerank API. `openAi` is the type's
 * OpenAI-compatible adaptor, when it has one: its URL rule and authentication are kept, the body is
 * the rerank API's own.
 */
export function rerankAdaptor(api: RerankApi, openAi: Adaptor | undefined): Adaptor {
  const buildRequest = (call: RelayCall): UpstreamRequest | Promise<UpstreamRequest> => {
    if (api === 'cohere') return cohereRequest(call);
    // The registry gives every type with another rerank API its OpenAI-compatible adaptor.
    if (!openAi) throw RelayError.internal();
    const body = upstreamRerankBody(api, call.upstreamModel, rerankRequestOf(call));
    const rawBody = Buffer.from(JSON.stringify(body));
    // The model is already the upstream one: the OpenAI adaptor sends these bytes as they are.
    return openAi.buildRequest({
      ...call,
      requestedModel: call.upstreamModel,
      body,
      rawBody,
      contentType: 'application/json',
      isStream: false,
    });
  };
  return {
    buildRequest,
    convertResponse: (call, body) => rerankAnswer(body, rerankRequestOf(call), call.requestedModel),
    streamTranslator: noStream,
    parseError: upstreamError,
  };
}
