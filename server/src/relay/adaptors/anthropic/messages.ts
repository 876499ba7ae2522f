import { asObject, type Json } from '../../json-value';
import { messageText } from '../openai-format';
import type {
  AnthropicBlock,
  AnthropicImageBlock,
  AnthropicMessage,
  AnthropicRole,
  AnthropicTextBlock,
  AnthropicToolUseBlock,
} from './wire';

const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

/** A data: URL travels inline; any other URL is handed to Anthropic to fetch (we never fetch it). */
export function imageBlock(url: string): AnthropicImageBlock {
  const inline = DATA_URL.exec(url);
  if (inline) return { type: 'image', source: { type: 'base64', media_type: inline[1]!, data: inline[2]! } };
  return { type: 'image', source: { type: 'url', url } };
}

/** Text and image parts of an OpenAI message content; Anthropic refuses empty text blocks. */
function contentBlocks(content: unknown): Array<AnthropicTextBlock | AnthropicImageBlock> {
  if (typeof content === 'string') return content ? [{ type: 'text', text: content }] : [];
  if (!Array.isArray(content)) return [];
  return content.flatMap((value): Array<AnthropicTextBlock | AnthropicImageBlock> => {
    const part = asObject(value);
    if (part?.type === 'text' && typeof part.text === 'string' && part.text) {
      return [{ type: 'text', text: part.text }];
    }
    const url = asObject(part?.image_url)?.url ?? part?.image_url;
    if (part?.type === 'image_url' && typeof url === 'string') return [imageBlock(url)];
    return [];
  });
}

function argumentsObject(text: unknown): Json {
  if (typeof text !== 'string' || !text.trim()) return {};
  try {
    return asObject(JSON.parse(text)) ?? { value: JSON.parse(text) };
  } catch {
    // Anthropic needs an object; arguments that are not JSON are kept as text
    return { arguments: text };
  }
}

function toolUseBlocks(toolCalls: unknown): AnthropicToolUseBlock[] {
  if (!Array.isArray(toolCalls)) return [];
  return toolCalls.flatMap((value) => {
    const toolCall = asObject(value);
    const fn = asObject(toolCall?.function);
    if (typeof fn?.name !== 'string') return [];
    return [
      {
        type: 'tool_use' as const,
        id: String(toolCall?.id ?? ''),
        name: fn.name,
        input: argumentsObject(fn.arguments),
      },
    ];
  });
}

/** One OpenAI message as the role and blocks it becomes (tool answers are user-side tool results). */
function converted(message: Json): { role: AnthropicRole; blocks: AnthropicBlock[] } {
  if (message.role === 'tool') {
    const text = messageText(message.content);
    return {
      role: 'user',
      blocks: [
        {
          type: 'tool_result',
          tool_use_id: String(message.tool_call_id ?? ''),
          ...(text ? { content: text } : {}),
        },
      ],
    };
  }
  if (message.role === 'assistant') {
    return {
      role: 'assistant',
      blocks: [...contentBlocks(message.content), ...toolUseBlocks(message.tool_calls)],
    };
  }
  return { role: 'user', blocks: contentBlocks(message.content) };
}

const isSystem = (message: Json) => message.role === 'system' || message.role === 'developer';

/**
 * OpenAI messages → Anthropic's `system` and `messages`. Every system (or developer) message is lifted
 * into `system`; consecutive messages of one role are merged, as Anthropic wants user and assistant to
 * alternate; messages left without content are dropped.
 */
export function toAnthropicMessages(openAiMessages: unknown): {
  system: string | undefined;
  messages: AnthropicMessage[];
} {
  const all = Array.isArray(openAiMessages)
    ? openAiMessages.map(asObject).filter((value): value is Json => value !== undefined)
    : [];
  const systemText = all
    .filter(isSystem)
    .map((message) => messageText(message.content))
    .filter(Boolean)
    .join('\n\n');
  const messages: AnthropicMessage[] = [];
  for (const message of all) {
    if (isSystem(message)) continue;
    const { role, blocks } = converted(message);
    if (blocks.length === 0) continue;
    const previous = messages.at(-1);
    if (previous?.role === role && Array.isArray(previous.content)) previous.content.push(...blocks);
    else messages.push({ role, content: blocks });
  }
  // A conversation made of a system prompt alone still needs a user turn.
  if (messages.length === 0 && systemText) {
    return { system: undefined, messages: [{ role: 'user', content: [{ type: 'text', text: systemText }] }] };
  }
  return { system: systemText || undefined, messages };
}
