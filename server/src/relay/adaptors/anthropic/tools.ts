import { asObject } from '../../json-value';
import type { AnthropicTool, AnthropicToolChoice } from './wire';

const EMPTY_SCHEMA = { type: 'object', properties: {} };

/** OpenAI `tools` (function tools only) → Anthropic tools; a function without parameters takes none. */
export function toAnthropicTools(tools: unknown): AnthropicTool[] | undefined {
  if (!Array.isArray(tools)) return undefined;
  const converted = tools.flatMap((value): AnthropicTool[] => {
    const fn = asObject(asObject(value)?.function);
    if (typeof fn?.name !== 'string') return [];
    return [
      {
        name: fn.name,
        ...(typeof fn.description === 'string' ? { description: fn.description } : {}),
        input_schema: asObject(fn.parameters) ?? EMPTY_SCHEMA,
      },
    ];
  });
  return converted.length > 0 ? converted : undefined;
}

/**
 * OpenAI `tool_choice` (and `parallel_tool_calls`) → Anthropic's: auto → auto, required → any,
 * none → none, a named function → that tool.
 */
export function toAnthropicToolChoice(choice: unknown, parallel: unknown): AnthropicToolChoice | undefined {
  const serial = parallel === false ? { disable_parallel_tool_use: true } : {};
  const name = asObject(asObject(choice)?.function)?.name;
  if (typeof name === 'string') return { type: 'tool', name, ...serial };
  if (choice === 'required') return { type: 'any', ...serial };
  if (choice === 'none') return { type: 'none' };
  if (choice === 'auto' || parallel === false) return { type: 'auto', ...serial };
  return undefined;
}
