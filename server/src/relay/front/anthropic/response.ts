import { asObject, type Json } from '../../json-value';

const STOP_REASONS: Record<string, string> = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  function_call: 'tool_use',
  content_filter: 'end_turn',
};

export const anthropicStopReason = (finishReason: unknown): string | null =>
  typeof finishReason === 'string' ? (STOP_REASONS[finishReason] ?? 'end_turn') : null;

function parseArguments(text: unknown): unknown {
  try {
    return JSON.parse(String(text ?? '{}'));
  } catch {
    return {};
  }
}

/**
 * An Anthropic message id for an OpenAI completion id: `chatcmpl-` dropped, so an Anthropic channel's
 * own `msg_…` id comes back unchanged and others become `msg_<id>`.
 */
export function anthropicMessageId(id: unknown, fallback: string): string {
  const bare = (typeof id === 'string' ? id : '').replace(/^chatcmpl-/, '') || fallback;
  return bare.startsWith('msg_') ? bare : `msg_${bare}`;
}

/** An OpenAI chat completion as an Anthropic Messages answer. */
export function openAiToAnthropic(completion: Json, model: string): Json {
  const choice = (Array.isArray(completion.choices) ? completion.choices[0] : undefined) as Json | undefined;
  const message = (choice?.message ?? {}) as Json;
  const content: Json[] = [];
  // An OpenAI-compatible provider's reasoning (DeepSeek's reasoning_content) is Claude's thinking.
  if (typeof message.reasoning_content === 'string' && message.reasoning_content)
    content.push({ type: 'thinking', thinking: message.reasoning_content, signature: '' });
  if (typeof message.content === 'string' && message.content)
    content.push({ type: 'text', text: message.content });
  for (const call of (Array.isArray(message.tool_calls) ? message.tool_calls : []) as Json[]) {
    const fn = (call.function ?? {}) as Json;
    content.push({ type: 'tool_use', id: call.id, name: fn.name, input: parseArguments(fn.arguments) });
  }
  return {
    id: anthropicMessageId(completion.id, String(Date.now())),
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: anthropicStopReason(choice?.finish_reason ?? 'stop'),
    stop_sequence: null,
    usage: anthropicUsage(completion.usage),
  };
}

/**
 * OpenAI usage in Anthropic's terms: Anthropic's input_tokens leave out prompt cache reads, which
 * OpenAI counts in prompt_tokens and details in `prompt_tokens_details.cached_tokens`.
 */
export function anthropicUsage(value: unknown): Json {
  const usage = asObject(value) ?? {};
  const prompt = Number(usage.prompt_tokens ?? 0);
  const cached = Math.min(prompt, Number(asObject(usage.prompt_tokens_details)?.cached_tokens ?? 0) || 0);
  return {
    input_tokens: prompt - cached,
    output_tokens: Number(usage.completion_tokens ?? 0),
    ...(cached > 0 ? { cache_read_input_tokens: cached } : {}),
  };
}
