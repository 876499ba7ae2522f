import { channelTypeById } from '@switchyard/contract/channel-types';
import { badUpstreamAnswer, type RelayError } from '../../errors';
import { asObject, type Json, numberOf } from '../../json-value';
import { answerObject, missing } from '../answer-check';
import { withTopLevelFields } from '../native-body';
import type {
  NativeFormat,
  NativeReading,
  NativeRequest,
  NativeStreamReader,
  RelayCall,
  UpstreamRequest,
} from '../types';
import { authHeaders } from './auth';
import { cloudClaudeRequest, cloudServesClaude } from './cloud-native';
import { anthropicErrorOf, anthropicError as upstreamAnthropicError } from './errors';
import { usageOf } from './response';
import type { AnthropicErrorBody, AnthropicResponse, AnthropicUsage } from './wire';

/** Client headers that say how Anthropic must read the body: they go upstream as sent. */
const FORWARDED_HEADERS = ['anthropic-version', 'anthropic-beta'];

export function forwardedHeaders(clientHeaders: NativeRequest['headers']): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of FORWARDED_HEADERS) {
    const value = clientHeaders[name];
    const text = Array.isArray(value) ? value.join(',') : value;
    if (text) headers[name] = text;
  }
  return headers;
}

/** The client's body with the mapped model, and the pipeline's max_tokens when it had to lower it. */
function upstreamBody(call: RelayCall, native: NativeRequest): Buffer {
  const fields: Json = {};
  if (call.upstreamModel !== native.body.model) fields.model = call.upstreamModel;
  const limit = numberOf(call.body?.max_tokens);
  if (limit !== undefined && limit < Number(native.body.max_tokens)) fields.max_tokens = limit;
  return Object.keys(fields).length > 0 ? withTopLevelFields(native.rawBody, fields) : native.rawBody;
}

function buildRequest(call: RelayCall, native: NativeRequest): UpstreamRequest | Promise<UpstreamRequest> {
  const style = channelTypeById(call.channel.type)?.apiStyle;
  if (style !== 'anthropic') return cloudClaudeRequest(style, call, native);
  return {
    url: `${call.baseUrl}/v1/messages`,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: call.isStream ? 'text/event-stream' : 'application/json',
      // The channel's key, never the client's; the client's version and beta flags.
      ...authHeaders(call.apiKey),
      ...forwardedHeaders(native.headers),
    },
    body: upstreamBody(call, native),
  };
}

/** What a block adds to the generated text, counted when usage is missing. */
function blockText(block: Json): string {
  if (typeof block.text === 'string') return block.text;
  if (typeof block.thinking === 'string') return block.thinking;
  if (block.type !== 'tool_use') return '';
  // A streamed tool_use block starts with an empty input; its JSON follows in deltas.
  const input = asObject(block.input);
  return String(block.name ?? '') + (input && Object.keys(input).length > 0 ? JSON.stringify(input) : '');
}

function readAnswer(body: Buffer): NativeReading | RelayError {
  const answer = answerObject<AnthropicResponse | AnthropicErrorBody>(body);
  if (answer instanceof Error) return answer;
  if (answer.type === 'error') return upstreamAnthropicError(answer.error);
  if (answer.type !== 'message') return missing('"type": "message"');
  const blocks = Array.isArray(answer.content) ? (answer.content as unknown as Json[]) : [];
  return { usage: usageOf(answer.usage), text: blocks.map(blockText).join('') };
}

/** Anthropic's stream events: usage in message_start, running totals in message_delta. */
class AnthropicEventReader implements NativeStreamReader {
  #usage: AnthropicUsage = {};
  #text = '';
  #done = false;
  #failed = false;

  read(data: string): void {
    const event = answerObject(data);
    if (event instanceof Error) throw event;
    if (typeof event.type !== 'string') throw badUpstreamAnswer('a stream event without a type');
    if (event.type === 'message_start') this.#report(asObject(event.message)?.usage);
    else if (event.type === 'message_delta') this.#report(event.usage);
    else if (event.type === 'message_stop') this.#done = true;
    else if (event.type === 'error') this.#failed = true;
    else if (event.type === 'content_block_start')
      this.#text += blockText(asObject(event.content_block) ?? {});
    else if (event.type === 'content_block_delta') {
      const delta = asObject(event.delta) ?? {};
      this.#text += blockText(delta) + (typeof delta.partial_json === 'string' ? delta.partial_json : '');
    }
  }

  #report(usage: unknown): void {
    const fields = Object.entries(asObject(usage) ?? {}).filter(([, value]) => typeof value === 'number');
    this.#usage = { ...this.#usage, ...Object.fromEntries(fields) };
  }

  usage = () => usageOf(this.#usage);
  text = () => this.#text;
  done = () => this.#done;
  failed = () => this.#failed;
}

/** Anthropic's Messages API as a native format: Anthropic channels get the client's call untouched. */
export const anthropicNative: NativeFormat = {
  // The apiStyle of Anthropic channels; Bedrock and Vertex channels speak it for their Claude models.
  name: 'anthropic',
  speaks(channelType, model) {
    const style = channelTypeById(channelType)?.apiStyle;
    return style === 'anthropic' || cloudServesClaude(style, model);
  },
  buildRequest,
  usage: { answer: readAnswer, stream: () => new AnthropicEventReader() },
  streamError: (error, requestId) =>
    `event: error\ndata: ${JSON.stringify(anthropicErrorOf(error, requestId))}\n\n`,
};
