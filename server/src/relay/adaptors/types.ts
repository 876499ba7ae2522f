import type { Readable } from 'node:stream';
import type { ChannelRow } from '../../db/schema';
import type { TokenUsage } from '../../domain/billing/token-usage';
import type { ClientSignal } from '../client-signal';
import type { RelayError } from '../errors';
import type { Json } from '../json-value';
import type { UpstreamClient, UpstreamRequest, UpstreamResponse } from '../upstream';

export type { UpstreamRequest } from '../upstream';

/** What kind of call this is, from the path. */
export type RelayMode =
  | 'chat'
  | 'completions'
  | 'embeddings'
  | 'moderations'
  | 'images'
  | 'image-edit'
  | 'image-variation'
  | 'audio-speech'
  | 'audio-transcription'
  | 'audio-translation'
  | 'rerank'
  /** Video jobs (pipeline/video-jobs.ts): counted against a key's limits, never relayed as a call. */
  | 'videos';

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
  /** A multipart upload kept on disk (image edits and variations); `rawBody` is then empty. */
  upload?: UploadedForm;
  /** The client's request in its own format, when its front serves one (pipeline/native.ts). */
  native?: NativeRequest;
}

/** A multipart form re-encoded for the provider: read from `stream()`, a fresh one per attempt. */
export interface EncodedForm {
  contentType: string;
  length: number;
  stream(): Readable;
}

/** An upload the relay holds outside memory; `encode` sets its `model` field when given one. */
export interface UploadedForm {
  encode(model?: string): EncodedForm;
}

/** Tokens of one call, with the parts the provider reported (see TokenUsage). */
export type Usage = TokenUsage;

export interface ConvertedResponse {
  /** What the client receives (OpenAI's format). */
  body: string | Buffer;
  /** `body` parsed, where the adaptor has it: a front translating the answer does not parse it again. */
  json?: Json;
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

/**
 * A format clients speak natively (pass-through: pipeline/native.ts) is a `NativeFormat`: its name (the apiStyle of the channels that speak
 * it, or a `speaks` test), the upstream request built from the native body, a reader of native usage
 * (body and stream events), and its stream error event.
 */
export interface NativeFormat {
  /** The format's name; by default the catalogue's apiStyle of the channel types that speak it. */
  readonly name: string;
  /**
   * True for the channel types that speak this format natively, when `name` is no apiStyle alone.
   * `model` (the mapped one) is given when it decides it (a cloud serving several families).
   */
  speaks?(channelType: number, model?: string): boolean;
  /** The upstream request for the client's own body; `call` holds the channel, key and mapped model. */
  buildRequest(call: RelayCall, native: NativeRequest): UpstreamRequest | Promise<UpstreamRequest>;
  /** Reads billing usage (and the text to count when there is none) from native answers. */
  usage: NativeUsageReader;
  /** The event that ends a stream the gateway breaks off (an upstream break, the quota), framed. */
  streamError(error: RelayError, requestId: string): string;
}

export interface NativeUsageReader {
  /** A whole answer's usage and text; a RelayError when it is no answer (an error in a 200). */
  answer(body: Buffer): NativeReading | RelayError;
  /** A reader of one stream's events, in order. */
  stream(): NativeStreamReader;
}

export interface NativeReading {
  usage: Usage | undefined;
  text: string;
}

/** Reads usage and text from a native stream; `read` throws a RelayError for an event of another format. */
export interface NativeStreamReader {
  read(data: string, event: string | undefined): void;
  usage(): Usage | undefined;
  text(): string;
  /** True once the provider said the answer is whole. */
  done(): boolean;
  /** True when the provider ended the stream with its own error event. */
  failed(): boolean;
}

/** The client's own request, beside the pipeline's OpenAI-shaped copy of it. */
export interface NativeRequest {
  format: NativeFormat;
  /** The body as the client sent it, byte for byte. */
  rawBody: Buffer;
  body: Json;
  /** The client's request headers (lower-case names), for the ones a format forwards. */
  headers: Record<string, string | string[] | undefined>;
  /**
   * Why the request has no faithful translation (a feature only the provider has): an attempt on a
   * channel that speaks the format passes it through, one on any other channel fails with this.
   */
  untranslatable?: RelayError;
}
