import { RelayError } from '../../errors';
import { asObject, type Json, numberOf } from '../../json-value';
import type { RelayCall, UpstreamRequest } from '../types';
import { authHeaders } from './auth';
import { toAnthropicMessages } from './messages';
import { withOutputFormat } from './output-format';
import { toAnthropicToolChoice, toAnthropicTools } from './tools';
import { type AnthropicRequest, DEFAULT_MAX_TOKENS } from './wire';

function stopSequences(stop: unknown): string[] | undefined {
  const list = typeof stop === 'string' ? [stop] : Array.isArray(stop) ? stop : [];
  const sequences = list.filter((item): item is string => typeof item === 'string' && item !== '');
  return sequences.length > 0 ? sequences : undefined;
}

/** The entries whose value is set: JSON.stringify drops undefined anyway, but tests compare objects. */
const defined = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;

/** An OpenAI chat completion request → an Anthropic Messages request for `model`. */
export function toAnthropicRequest(body: Json, model: string): AnthropicRequest {
  const converted = toAnthropicMessages(body.messages);
  const { system, output_config } = withOutputFormat(body.response_format, converted.system, model);
  const { messages } = converted;
  const tools = toAnthropicTools(body.tools);
  return defined<AnthropicRequest>({
    model,
    messages,
    system,
    max_tokens: numberOf(body.max_tokens) || numberOf(body.max_completion_tokens) || DEFAULT_MAX_TOKENS,
    temperature: numberOf(body.temperature),
    top_p: numberOf(body.top_p),
    top_k: numberOf(body.top_k),
    stop_sequences: stopSequences(body.stop),
    stream: body.stream === true ? true : undefined,
    tools,
    // Anthropic refuses a tool_choice without tools.
    tool_choice: tools ? toAnthropicToolChoice(body.tool_choice, body.parallel_tool_calls) : undefined,
    metadata: typeof body.user === 'string' && body.user ? { user_id: body.user } : undefined,
    // Not OpenAI's, but clients of Anthropic's OpenAI-compatible API send it: it goes on as it came.
    thinking: asObject(body.thinking),
    output_config,
  });
}

export function buildRequest(call: RelayCall): UpstreamRequest {
  if (call.mode !== 'chat') {
    throw RelayError.invalid(
      `Anthropic channels relay chat completions only, not ${call.mode}`,
      'unsupported_mode',
    );
  }
  const body = toAnthropicRequest({ ...call.body, stream: call.isStream }, call.upstreamModel);
  return {
    url: `${call.baseUrl}/v1/messages`,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: call.isStream ? 'text/event-stream' : 'application/json',
      ...authHeaders(call.apiKey),
    },
    body: JSON.stringify(body),
  };
}
