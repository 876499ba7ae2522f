import { RelayError } from '../../errors';
import { answerObject } from '../answer-check';
import { chatAnswer, type ToolCall } from '../openai-format';
import type { ConvertedResponse, RelayCall, Usage } from '../types';
import { parseError } from './errors';
import type { SparkFrame, SparkTextItem } from './wire';

/** Only the last frame carries usage. */
export function usageOf(frame: SparkFrame): Usage | undefined {
  const usage = frame.payload?.usage?.text;
  if (!usage) return undefined;
  return { prompt_tokens: usage.prompt_tokens ?? 0, completion_tokens: usage.completion_tokens ?? 0 };
}

export function toolCallsOf(call: RelayCall, items: SparkTextItem[]): ToolCall[] {
  return items.flatMap((item, index) =>
    item.function_call?.name
      ? [
          {
            id: `call_${call.requestId}_${index}`,
            type: 'function' as const,
            function: { name: item.function_call.name, arguments: item.function_call.arguments ?? '{}' },
          },
        ]
      : [],
  );
}

/** The transport's one merged frame → an OpenAI chat completion. */
export function convertResponse(call: RelayCall, body: Buffer): ConvertedResponse | RelayError {
  const frame = answerObject<SparkFrame>(body);
  if (frame instanceof RelayError) return frame;
  if ((frame.header?.code ?? 0) !== 0) return parseError(500, body);
  const items = frame.payload?.choices?.text ?? [];
  const content = items.map((item) => item.content ?? '').join('');
  const toolCalls = toolCallsOf(call, items);
  const usage = usageOf(frame);
  return chatAnswer({
    id: `chatcmpl-${call.requestId}`,
    model: call.upstreamModel,
    text: content,
    finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
    usage,
    toolCalls,
  });
}
