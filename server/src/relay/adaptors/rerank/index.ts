import type { ChannelType } from '@switchyard/contract/channel-types';
import { RelayError } from '../../errors';
import type { Adaptor, RelayCall, UpstreamRequest } from '../types';
import { upstreamError } from '../upstream-error';
import { rerankAnswer } from './answer';
import { readRerankRequest } from './rerank-request';
import { type BodyRerankApi, upstreamRerankBody } from './upstream-body';

const rerankRequestOf = (call: RelayCall) => readRerankRequest(call.body ?? {});

/** Rerank answers are whole JSON bodies: there is no stream to translate. */
const noStream = (): never => {
  throw RelayError.invalid('Rerank calls do not stream', 'invalid_rerank_request', { param: 'stream' });
};

/**
 * Where a type's rerank calls go: Cohere's `/v2/rerank`; `/rerank` after a base URL that holds the
 * API version (OpenAI compatible, `https://host/v1`); else `/v1/rerank`, a base ending in /v1 not doubled.
 */
function rerankUrl(api: BodyRerankApi, type: ChannelType, baseUrl: string): string {
  if (api === 'cohere') return `${baseUrl}/v2/rerank`;
  if (type.openAi?.url?.kind === 'versioned-base') return `${baseUrl}/rerank`;
  return `${baseUrl.replace(/\/v1$/, '')}/v1/rerank`;
}

/** The rerank adaptor of a type whose catalogue entry names its rerank API (`type.rerank`). */
export function rerankAdaptor(api: BodyRerankApi, type: ChannelType): Adaptor {
  return {
    buildRequest(call: RelayCall): UpstreamRequest {
      const clientBody = call.body ?? {};
      const body = upstreamRerankBody(api, call.upstreamModel, readRerankRequest(clientBody), clientBody);
      return {
        url: rerankUrl(api, type, call.baseUrl),
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          authorization: `Bearer ${call.apiKey}`,
        },
        body: JSON.stringify(body),
      };
    },
    convertResponse: (call, body) => rerankAnswer(body, rerankRequestOf(call), call.requestedModel),
    streamTranslator: noStream,
    parseError: upstreamError,
  };
}
