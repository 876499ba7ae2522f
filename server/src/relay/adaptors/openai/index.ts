import { RelayError } from '../../errors';
import { asObject, type Json } from '../../json-value';
import { answerObject, badStreamEvent, missing } from '../answer-check';
import { withFormField } from '../form-field';
import type {
  Adaptor,
  ConvertedResponse,
  RelayCall,
  RelayMode,
  StreamTranslator,
  UpstreamRequest,
  Usage,
} from '../types';
import { upstreamError } from '../upstream-error';

/** Per-type differences of the OpenAI-compatible family. */
export interface OpenAiSettings {
  /** Builds the upstream URL; the default is base + the incoming path and query. */
  url?: (call: RelayCall) => string;
  /** Authentication headers; the default is `Authorization: Bearer <key>`. */
  auth?: (call: RelayCall) => Record<string, string>;
  extraHeaders?: Record<string, string>;
  /** Ask for a usage chunk at the end of streams (`stream_options.include_usage`). */
  streamUsage?: boolean;
}

const defaultUrl = (call: RelayCall) => {
  let base = call.baseUrl;
  let path = call.path;
  // Cloudflare's AI gateway already ends in the provider's /v1.
  if (base.startsWith('https://gateway.ai.cloudflare.com')) path = path.replace(/^\/v1/, '');
  if (base.endsWith('/v1') && path.startsWith('/v1/')) base = base.slice(0, -3);
  return `${base}${path}${call.query}`;
};

const bearer = (call: RelayCall) => ({ authorization: `Bearer ${call.apiKey}` });

/** The request body: the client's own bytes unless the model is mapped or usage must be asked for. */
function requestBody(call: RelayCall, settings: OpenAiSettings): string | Buffer {
  const mapped = call.upstreamModel !== call.requestedModel;
  if (!call.body) {
    // A multipart upload names its model in a field of the form.
    return mapped && call.contentType.startsWith('multipart/form-data')
      ? withFormField(call.rawBody, call.contentType, 'model', call.upstreamModel)
      : call.rawBody;
  }
  const wantsUsage =
    settings.streamUsage &&
    call.isStream &&
    (call.mode === 'chat' || call.mode === 'completions') &&
    !asObject(call.body.stream_options)?.include_usage;
  if (!mapped && !wantsUsage) return call.rawBody;
  const body: Json = { ...call.body, model: call.upstreamModel };
  if (wantsUsage) body.stream_options = { ...asObject(call.body.stream_options), include_usage: true };
  return JSON.stringify(body);
}

/** A token count a provider reported: a finite number of 0 or more, else nothing. */
const tokenCount = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;

/**
 * The parts OpenAI details: `prompt_tokens_details` (cached, audio, image) and
 * `completion_tokens_details` (reasoning, audio), or the Responses API's `input_tokens_details` and
 * `output_tokens_details`. Zero or absent parts are left out.
 */
function usageParts(usage: Json): Partial<Usage> {
  const input = asObject(usage.prompt_tokens_details) ?? asObject(usage.input_tokens_details) ?? {};
  const output = asObject(usage.completion_tokens_details) ?? asObject(usage.output_tokens_details) ?? {};
  const parts: Partial<Usage> = {};
  const add = (name: keyof Usage, value: unknown) => {
    const count = tokenCount(value);
    if (count) parts[name] = count;
  };
  add('cached_tokens', input.cached_tokens);
  add('prompt_audio_tokens', input.audio_tokens);
  add('prompt_image_tokens', input.image_tokens);
  add('reasoning_tokens', output.reasoning_tokens);
  add('completion_audio_tokens', output.audio_tokens);
  return parts;
}

/** OpenAI's usage object (chat, completions, embeddings, the last stream chunk) as the relay bills it. */
export function readUsage(value: unknown): Usage | undefined {
  const usage = asObject(value);
  if (!usage) return undefined;
  const prompt = Number(usage.prompt_tokens ?? usage.input_tokens ?? 0);
  const total = Number(usage.total_tokens ?? 0);
  let completion = Number(usage.completion_tokens ?? usage.output_tokens ?? 0);
  if (!Number.isFinite(prompt) || !Number.isFinite(completion)) return undefined;
  if (completion === 0 && total > prompt) completion = total - prompt;
  if (prompt === 0 && completion === 0 && total === 0) return undefined;
  return { prompt_tokens: prompt, completion_tokens: completion, ...usageParts(usage) };
}

/** The text of a chat or completion answer (choices' message content or text, reasoning included). */
function choicesText(body: Json): string {
  const choices = Array.isArray(body.choices) ? (body.choices as Json[]) : [];
  let text = '';
  for (const choice of choices) {
    const message = asObject(choice.message) ?? asObject(choice.delta);
    if (typeof message?.reasoning_content === 'string') text += message.reasoning_content;
    if (typeof message?.content === 'string') text += message.content;
    if (typeof choice.text === 'string') text += choice.text;
    const toolCalls = Array.isArray(message?.tool_calls) ? (message.tool_calls as Json[]) : [];
    for (const call of toolCalls) {
      const fn = asObject(call.function);
      if (typeof fn?.name === 'string') text += fn.name;
      if (typeof fn?.arguments === 'string') text += fn.arguments;
    }
  }
  return text;
}

/** A chunk that may report usage (an object, not `"usage":null`) or has no choices: read it at once. */
const USAGE_OBJECT = /"usage"\s*:\s*\{/;
const NO_CHOICES = /"choices"\s*:\s*\[\s*\]/;
/**
 * A chunk is a JSON object: judged by its two ends, as chunks pass through unparsed. It catches the
 * garbage seen in practice (HTML, plain text, a truncated line); the parse for counting skips the rest.
 */
function looksLikeObject(data: string): boolean {
  const ends = (text: string) => text.charCodeAt(0) === 123 && text.charCodeAt(text.length - 1) === 125;
  return ends(data) || ends(data.trim());
}

/** A chunk with a choice's `finish_reason` set (not null). */
const FINISHED = /"finish_reason"\s*:\s*"/;

/** Unread chunks kept at most before their text is read, so a long stream holds little memory. */
const UNREAD_LIMIT_CHARS = 64 * 1024;

/**
 * OpenAI-format streams pass through as they are. Usage is read from the chunk that carries it; the
 * text is needed only when no usage comes (to count it), so chunks are kept unread and parsed only
 * if it is asked for, or in batches once they add up.
 */
class OpenAiStream implements StreamTranslator {
  #usage: Usage | undefined;
  #text = '';
  #unread: string[] = [];
  #unreadChars = 0;
  #done = false;

  push(data: string): string[] {
    if (data === '[DONE]') {
      this.#done = true;
      return [];
    }
    if (!looksLikeObject(data)) throw badStreamEvent();
    // A choice that says why it ended makes the answer whole, should `[DONE]` not follow.
    if (!this.#done && FINISHED.test(data)) this.#done = true;
    if (!USAGE_OBJECT.test(data) && !NO_CHOICES.test(data)) {
      this.#keepUnread(data);
      return [data];
    }
    let chunk: Json | undefined;
    try {
      chunk = asObject(JSON.parse(data));
    } catch {
      throw badStreamEvent();
    }
    if (!chunk) throw badStreamEvent();
    const usage = readUsage(chunk.usage);
    if (usage) this.#usage = usage;
    const text = choicesText(chunk);
    if (text) this.#text = this.text() + text;
    // An Azure quirk: chunks with neither choices nor usage carry nothing for the client.
    const choices = chunk.choices;
    if (Array.isArray(choices) && choices.length === 0 && !chunk.usage) return [];
    return [data];
  }

  usage(): Usage | undefined {
    return this.#usage;
  }

  text(): string {
    if (this.#unread.length > 0) {
      for (const data of this.#unread) {
        try {
          this.#text += choicesText(asObject(JSON.parse(data)) ?? {});
        } catch {
          // not JSON: nothing to count
        }
      }
      this.#unread = [];
      this.#unreadChars = 0;
    }
    return this.#text;
  }

  done(): boolean {
    return this.#done;
  }

  #keepUnread(data: string): void {
    this.#unread.push(data);
    this.#unreadChars += data.length;
    if (this.#unreadChars > UNREAD_LIMIT_CHARS) this.text();
  }
}

/** The list every JSON answer of a mode carries; modes not named answer audio or free-form text. */
const ANSWER_LIST: Partial<Record<RelayMode, string>> = {
  chat: 'choices',
  completions: 'choices',
  embeddings: 'data',
  images: 'data',
  'image-edit': 'data',
  'image-variation': 'data',
  moderations: 'results',
};

const transcriptOf = (call: RelayCall, body: Buffer, contentType: string): string =>
  call.mode === 'audio-transcription' || call.mode === 'audio-translation'
    ? transcriptText(body.toString(), contentType)
    : '';

/** The adaptor shared by every OpenAI-compatible channel type, with per-type settings. */
export function openAiAdaptor(settings: OpenAiSettings = {}): Adaptor {
  return {
    buildRequest(call: RelayCall): UpstreamRequest {
      // An upload kept on disk goes re-encoded, its model field set to the mapped model.
      const upload = call.upload?.encode(
        call.upstreamModel === call.requestedModel ? undefined : call.upstreamModel,
      );
      const headers: Record<string, string> = {
        'content-type': upload?.contentType ?? (call.contentType || 'application/json'),
        ...(upload ? { 'content-length': String(upload.length) } : {}),
        accept: call.isStream ? 'text/event-stream' : 'application/json',
        ...(settings.auth ?? bearer)(call),
        ...settings.extraHeaders,
      };
      return {
        url: (settings.url ?? defaultUrl)(call),
        method: 'POST',
        headers,
        body: upload ? upload.stream() : requestBody(call, settings),
      };
    },

    convertResponse(call, body, contentType): ConvertedResponse | RelayError {
      const list = ANSWER_LIST[call.mode];
      // Speech is audio bytes; transcripts are text, JSON or subtitles as the client asked.
      if (!list) return { body, contentType, text: transcriptOf(call, body, contentType) };
      const parsed = answerObject(body);
      if (parsed instanceof RelayError) return parsed;
      if (asObject(parsed.error)) return upstreamError(500, body);
      if (!Array.isArray(parsed[list])) return missing(`"${list}" list`);
      return {
        body,
        json: parsed,
        contentType: contentType.includes('json') ? contentType : 'application/json',
        usage: readUsage(parsed.usage),
        text: choicesText(parsed),
      };
    },

    streamTranslator: () => new OpenAiStream(),
    parseError: upstreamError,
  };
}

/** The text of a transcription or translation answer, in any of its response formats. */
function transcriptText(body: string, contentType: string): string {
  if (contentType.includes('json')) {
    try {
      const parsed = JSON.parse(body) as { text?: unknown };
      return typeof parsed.text === 'string' ? parsed.text : '';
    } catch {
      return '';
    }
  }
  return body;
}
