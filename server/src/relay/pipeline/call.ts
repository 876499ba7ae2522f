import { channelBaseUrl } from '@switchyard/contract/channels';
import type { ChannelRow } from '../../db/schema';
import type { NativeRequest, RelayCall, RelayMode } from '../adaptors/types';
import type { Json } from '../json-value';
import { modelMappingOf } from './model-mapping';
import type { RelayRequest } from './relay-request';
import type { SpooledForm } from './spooled-form';
import type { TokenCounter } from './tokenizer';

/** A client's call as a front hands it to the pipeline: still bytes (its caller is checked apart). */
export interface IncomingCall {
  requestId: string;
  mode: RelayMode;
  path: string;
  query: string;
  rawBody: Buffer;
  /** `rawBody` parsed, when the front made it from an object (a translated call): not parsed again. */
  body?: Record<string, unknown>;
  contentType: string;
  pathModel?: string;
  /** The client's own request, for a front of another format (native.ts). */
  native?: NativeRequest;
  /** A multipart upload the front spooled to disk (image edits, variations); `rawBody` is empty. */
  upload?: SpooledForm;
}

/**
 * An unbilled call a front hands the pipeline (count_tokens): the client's own request, for the
 * channels that speak its format, and the answer the gateway gives on the others.
 */
export interface UnbilledCall {
  requestId: string;
  path: string;
  query: string;
  /** The model the client named, routed and mapped as any call's. */
  model: string;
  native: NativeRequest;
  /** The answer on a channel of another format, counted by the gateway without an upstream call. */
  answerHere(counter: TokenCounter): Json;
}

/** Everything an adaptor needs for one attempt on one channel, the model mapping applied. */
export function buildRelayCall(
  incoming: Pick<IncomingCall, 'requestId' | 'path' | 'query' | 'native'>,
  request: RelayRequest,
  channel: ChannelRow,
): RelayCall {
  const mapped = modelMappingOf(channel.model_mapping)[request.model];
  return {
    requestId: incoming.requestId,
    mode: request.mode,
    path: incoming.path,
    query: incoming.query,
    channel,
    baseUrl: channelBaseUrl(channel),
    apiKey: channel.key,
    requestedModel: request.model,
    upstreamModel: mapped || request.model,
    isStream: request.isStream,
    body: request.body,
    rawBody: request.rawBody,
    contentType: request.contentType,
    ...(request.upload ? { upload: request.upload } : {}),
    ...(incoming.native ? { native: incoming.native } : {}),
  };
}
