import type { MaybePromise } from '../../maybe-promise';
import { readRerankRequest } from '../adaptors/rerank/rerank-request';
import type { RelayMode } from '../adaptors/types';
import { RelayError } from '../errors';
import { validateImageForm } from './image-request';
import { type FormSummary, readForm } from './multipart-form';
import type { SpooledForm } from './spooled-form';
import type { TokenCounter } from './tokenizer';

const MAX_TOKENS_LIMIT = 1_073_741_823;

/** What the relay needs to know about the client's request, read once. */
export interface RelayRequest {
  mode: RelayMode;
  model: string;
  isStream: boolean;
  maxTokens: number;
  body: Record<string, unknown> | undefined;
  /** A multipart body's fields and file counts (uploads); undefined for JSON bodies. */
  form?: FormSummary;
  /** The upload itself when the front spooled it to disk (then `rawBody` is empty). */
  upload?: SpooledForm;
  rawBody: Buffer;
  contentType: string;
}

const invalid = (message: string, code = 'invalid_request') => RelayError.invalid(message, code);

/** The model a call uses when the client names none. */
const DEFAULT_MODELS: Partial<Record<RelayMode, string>> = {
  moderations: 'text-moderation-latest',
  images: 'dall-e-2',
  // OpenAI's own default for edits and variations.
  'image-edit': 'dall-e-2',
  'image-variation': 'dall-e-2',
  'audio-transcription': 'whisper-1',
  'audio-translation': 'whisper-1',
};

/** The call's request, validated: at once from a JSON body; a multipart form is read (a promise). */
export function readRelayRequest(
  mode: RelayMode,
  raw: Buffer,
  contentType: string,
  pathModel?: string,
  parsed?: Record<string, unknown>,
  upload?: SpooledForm,
): MaybePromise<RelayRequest> {
  if (contentType.startsWith('multipart/form-data') && mode === 'rerank') {
    throw invalid('A rerank request is a JSON body', 'invalid_rerank_request');
  }
  if (contentType.startsWith('multipart/form-data')) return readFormRequest(mode, raw, contentType, upload);
  const body = parsed ?? parseBody(raw);
  const model = (typeof body.model === 'string' && body.model) || pathModel || DEFAULT_MODELS[mode] || '';
  const maxTokens = Number(body.max_tokens ?? body.max_completion_tokens ?? 0);
  const request: RelayRequest = {
    mode,
    model,
    // A rerank answer is one JSON body, whatever `stream` says.
    isStream: mode !== 'rerank' && body.stream === true,
    maxTokens: Number.isFinite(maxTokens) ? maxTokens : 0,
    body,
    rawBody: raw,
    contentType: 'application/json',
  };
  validate(request);
  validateImageForm(request);
  return request;
}

/** A multipart form's fields (an image edit, an audio file), read or summed up from its spooled copy. */
async function readFormRequest(
  mode: RelayMode,
  raw: Buffer,
  contentType: string,
  upload: SpooledForm | undefined,
): Promise<RelayRequest> {
  const form = upload ? upload.summary() : await readForm(raw, contentType);
  const model = form.fields.get('model') || DEFAULT_MODELS[mode] || '';
  const request: RelayRequest = {
    mode,
    model,
    isStream: false,
    maxTokens: 0,
    body: undefined,
    form,
    rawBody: raw,
    contentType,
    ...(upload ? { upload } : {}),
  };
  validateImageForm(request);
  return request;
}

function parseBody(raw: Buffer): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(raw.toString('utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new Error('not an object');
    return parsed as Record<string, unknown>;
  } catch {
    throw invalid('The request body must be a JSON object', 'invalid_json');
  }
}

function validate({ mode, model, body, maxTokens }: RelayRequest): void {
  if (!model) throw invalid('model is required', 'invalid_text_request');
  if (maxTokens < 0 || maxTokens > MAX_TOKENS_LIMIT)
    throw invalid('max_tokens is invalid', 'invalid_text_request');
  if (mode === 'chat' && (!Array.isArray(body?.messages) || body.messages.length === 0)) {
    throw invalid('messages must be a non-empty array', 'invalid_text_request');
  }
  if (mode === 'completions' && body?.prompt === undefined)
    throw invalid('prompt is required', 'invalid_text_request');
  if ((mode === 'embeddings' || mode === 'moderations') && body?.input === undefined) {
    throw invalid('input is required', 'invalid_text_request');
  }
  if (mode === 'images' && typeof body?.prompt !== 'string')
    throw invalid('prompt is required', 'prompt_missing');
  if (mode === 'audio-speech' && typeof body?.input !== 'string')
    throw invalid('input is required', 'invalid_request');
  if (mode === 'rerank') readRerankRequest(body ?? {});
}

const joinInput = (input: unknown): string =>
  typeof input === 'string'
    ? input
    : Array.isArray(input)
      ? input.filter((item) => typeof item === 'string').join('\n')
      : '';

/** Tokens the request itself carries (what the provider will bill as prompt tokens). */
export function countPromptTokens(request: RelayRequest, counter: TokenCounter): number {
  const { body, model } = request;
  switch (request.mode) {
    case 'chat':
      return counter.messages(body?.messages, model);
    case 'completions':
      return counter.text(joinInput(body?.prompt), model);
    case 'embeddings':
    case 'moderations':
      return counter.text(joinInput(body?.input), model);
    case 'rerank': {
      const { query, documents } = readRerankRequest(body ?? {});
      return counter.text([query, ...documents].join('\n'), model);
    }
    default:
      return 0;
  }
}
