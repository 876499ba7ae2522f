import { type ResponseShellContext, responseShell } from '../../adaptors/openai/responses-wire';
import { asObject, type Json, numberOf } from '../../json-value';
import { type ClientTools, toolCallItem } from './tools';

/** What every response object of one call shares, and the client's tools by their chat names. */
export interface ResponseContext extends ResponseShellContext {
  /** The client's tools by their chat names: each call goes back as the kind of tool it calls. */
  tools: ClientTools;
}

type ItemStatus = 'in_progress' | 'completed' | 'incomplete';

export const itemIds = (requestId: string) => ({
  message: `msg_${requestId}`,
  reasoning: `rs_${requestId}`,
  functionCall: (index: number) => `fc_${requestId}_${index}`,
});

export const outputText = (text: string): Json => ({ type: 'output_text', text, annotations: [] });

export const messageItem = (id: string, status: ItemStatus, content: Json[]): Json => ({
  id,
  type: 'message',
  status,
  role: 'assistant',
  content,
});

export const reasoningItem = (id: string, status: ItemStatus, text: string | undefined): Json => ({
  id,
  type: 'reasoning',
  status,
  summary: [],
  content: text === undefined ? [] : [{ type: 'reasoning_text', text }],
});

/** A chat answer's `usage` as the Responses API reports it; null when the upstream sent none. */
export function responsesUsage(value: unknown): Json | null {
  const usage = asObject(value);
  if (!usage) return null;
  const input = numberOf(usage.prompt_tokens) ?? 0;
  const output = numberOf(usage.completion_tokens) ?? 0;
  const inputDetails = asObject(usage.prompt_tokens_details);
  const cacheWrite = numberOf(inputDetails?.cache_write_tokens);
  return {
    input_tokens: input,
    input_tokens_details: {
      cached_tokens: numberOf(inputDetails?.cached_tokens) ?? 0,
      ...(cacheWrite === undefined ? {} : { cache_write_tokens: cacheWrite }),
    },
    output_tokens: output,
    output_tokens_details: {
      reasoning_tokens: numberOf(asObject(usage.completion_tokens_details)?.reasoning_tokens) ?? 0,
    },
    total_tokens: numberOf(usage.total_tokens) ?? input + output,
  };
}

/** A chat finish reason as the response's status: a cut-off answer is incomplete, with the reason. */
export function finalStatus(finishReason: unknown): { status: string; incomplete_details: Json | null } {
  if (finishReason === 'length')
    return { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } };
  if (finishReason === 'content_filter')
    return { status: 'incomplete', incomplete_details: { reason: 'content_filter' } };
  return { status: 'completed', incomplete_details: null };
}

/** The reasoning text OpenAI-compatible providers send beside the answer (DeepSeek and kin). */
export const reasoningTextOf = (message: Json | undefined): string | undefined => {
  const text = message?.reasoning_content ?? message?.reasoning;
  return typeof text === 'string' && text ? text : undefined;
};

/** An OpenAI chat completion as a Responses API response object. */
export function chatToResponse(completion: Json, context: ResponseContext): Json {
  const choice = asObject(Array.isArray(completion.choices) ? completion.choices[0] : undefined);
  const message = asObject(choice?.message);
  const { status, incomplete_details } = finalStatus(choice?.finish_reason);
  const itemStatus = status === 'completed' ? 'completed' : 'incomplete';
  const ids = itemIds(context.requestId);
  const output: Json[] = [];
  const reasoning = reasoningTextOf(message);
  if (reasoning) output.push(reasoningItem(ids.reasoning, itemStatus, reasoning));
  const content: Json[] = [];
  if (typeof message?.content === 'string' && message.content) content.push(outputText(message.content));
  if (typeof message?.refusal === 'string' && message.refusal)
    content.push({ type: 'refusal', refusal: message.refusal });
  if (content.length > 0) output.push(messageItem(ids.message, itemStatus, content));
  const toolCalls = Array.isArray(message?.tool_calls) ? message.tool_calls : [];
  toolCalls.forEach((entry, index) => {
    const call = asObject(entry);
    const fn = asObject(call?.function);
    output.push(
      toolCallItem(context.tools, ids.functionCall(index), 'completed', {
        callId: typeof call?.id === 'string' && call.id ? call.id : `call_${context.requestId}_${index}`,
        name: String(fn?.name ?? ''),
        arguments: typeof fn?.arguments === 'string' ? fn.arguments : '{}',
      }),
    );
  });
  return {
    ...responseShell(context, status),
    incomplete_details,
    output,
    usage: responsesUsage(completion.usage),
  };
}
