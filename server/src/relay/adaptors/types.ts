import type { ChannelRow } from '../../db/schema';
import type { TokenUsage } from '../../domain/billing/token-usage';
import type { RelayError } from '../errors';
import type { ClientSignal } from '../pipeline/client-sink';
import type { NativeRequest } from '../pipeline/native';
import type { UpstreamClient, UpstreamResponse } from '../upstream';

/** What kind of call this is, from the path. */
export type RelayMode =
  | 'chat'
  | 'completions'
  | 'embeddings'
  | 'moderations'
  | 'images'
  | 'audio-speech'
  | 'audio-transcription'
  | 'audio-translation';

/** Everything about one attempt on one channel: adaptors read this and never the HTTP request. */
export interface RelayCall {
  requestId: string;
  mode: RelayMode;
  /** The incoming path and query, e.g. `/v1/chat/completions`. */
  path: string;
  query: string;
  channel: ChannelRow;
  baseUrl: string;
  apiKey: string;
  requestedModel: string;
  upstreamModel: string;
  isStream: boolean;
  /** The JSON body as sent by the client (unknown fields kept). Undefined for multipart bodies. */
  body: Record<string, unknown> | undefined;
  rawBody: Buffer;
  contentType: string;
  /** The client's request in its own format, when its front serves one (pipeline/native.ts). */
  native?: NativeRequest;
}

export interface UpstreamRequest {
  url: string;
  method: 'POST' | 'GET';
  headers: Record<string, string>;
  body?: string | Buffer;
}

/** Tokens of one call, with the parts the provider reported (see TokenUsage). */
export type Usage = TokenUsage;

export interface ConvertedResponse {
  /** What the client receives (OpenAI's format). */
  body: string | Buffer;
  contentType: string;
  usage?: Usage;
  /** The generated text, to count when the provider reports no usage. */
  text: string;
}

/** Turns upstream stream events into OpenAI `data:` payloads, keeping track of usage and text. */
export interface StreamTranslator {
  /**
   * One upstream event's data (without the `data: ` prefix); answers the payloads to forward. Throws
   * a RelayError (bad_upstream_answer) for data that is not an event of the provider's format.
   */
  push(data: string, event?: string): string[];
  /** Usage reported by the provider, if any (the last report wins, never a sum). */
  usage(): Usage | undefined;
  /** Text generated so far. */
  text(): string;
  /** True once the provider said the stream is over. */
  done(): boolean;
}

/**
 * One upstream wire format: pure transforms plus its authentication.
 * - buildRequest: URL, headers (auth included) and body for the provider; may fetch and cache a
 *   credential first (token exchange, signed JWT).
 * - convertResponse: a non-stream 200 body → OpenAI's JSON, with usage when the provider reports it.
 * - streamTranslator: the provider's stream events → OpenAI `chat.completion.chunk` payloads.
 * - parseError: a non-200 answer → a RelayError (status, message, type, code) for the client and
 *   for channel health.
 * - transport: for providers whose answers need re-framing or that do not speak HTTP request/response
 *   (iFlytek's WebSocket); it answers a stream of SSE-framed provider events, or one JSON body when
 *   not streaming. `http` is the relay's own client (its pool and RELAY_TIMEOUT).
 */
export interface Adaptor {
  buildRequest(call: RelayCall): UpstreamRequest | Promise<UpstreamRequest>;
  transport?(
    request: UpstreamRequest,
    call: RelayCall,
    signal: ClientSignal,
    http: UpstreamClient,
  ): Promise<UpstreamResponse>;
  convertResponse(call: RelayCall, body: Buffer, contentType: string): ConvertedResponse | RelayError;
  streamTranslator(call: RelayCall): StreamTranslator;
  parseError(status: number, body: Buffer): RelayError;
}
