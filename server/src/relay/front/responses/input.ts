import { asObject, type Json } from '../../json-value';
import { invalidResponsesRequest, needsStoredState } from './errors';
import { chatToolName, translateTools } from './tools';

const MESSAGE_ROLES = new Set(['user', 'assistant', 'system', 'developer']);

/** Input items that point at stored items, which a stateless gateway cannot look up. */
const STATEFUL_ITEMS = new Set(['item_reference']);

/** One content part of an input message as a chat part. */
function chatPart(part: Json, param: string): Json {
  switch (part.type) {
    case 'input_text':
    case 'output_text':
      if (typeof part.text !== 'string')
        throw invalidResponsesRequest(`${param}.text must be a string`, `${param}.text`);
      return { type: 'text', text: part.text };
    case 'refusal':
      return { type: 'text', text: String(part.refusal ?? '') };
    case 'input_image': {
      if (part.file_id !== undefined && part.file_id !== null) {
        throw invalidResponsesRequest(
          `${param}.file_id is not supported: this gateway does not store files; send image_url (an https or data: URL) instead`,
          `${param}.file_id`,
          'unsupported_parameter',
        );
      }
      if (typeof part.image_url !== 'string' || !part.image_url)
        throw invalidResponsesRequest(`${param}.image_url must be a URL`, `${param}.image_url`);
      const detail = typeof part.detail === 'string' ? { detail: part.detail } : {};
      return { type: 'image_url', image_url: { url: part.image_url, ...detail } };
    }
    default:
      throw invalidResponsesRequest(
        `${param}.type '${String(part.type)}' is not supported; use input_text, input_image or output_text`,
        `${param}.type`,
        'unsupported_content_type',
      );
  }
}

/** A message's content (a string or parts) as chat content: a string when it is text only. */
function chatContent(content: unknown, role: string, param: string): string | Json[] {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content))
    throw invalidResponsesRequest(`${param} must be a string or an array of content parts`, param);
  const parts = content.map((part, index) => {
    const object = asObject(part);
    if (!object) throw invalidResponsesRequest(`${param}[${index}] must be an object`, `${param}[${index}]`);
    return chatPart(object, `${param}[${index}]`);
  });
  const textOnly = parts.every((part) => part.type === 'text');
  // Assistant and system turns are text in every chat format; one text part reads best as a string.
  if (textOnly && (role !== 'user' || parts.length === 1)) return parts.map((part) => part.text).join('');
  if (!textOnly && role !== 'user')
    throw invalidResponsesRequest(`${param}: only user messages may carry images`, param);
  return parts;
}

/** A function call output's `output`: a string, or text parts joined. */
function toolOutput(output: unknown, param: string): string {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) {
    return output
      .map((part, index) => {
        const object = asObject(part);
        if (object?.type !== 'input_text' || typeof object.text !== 'string') {
          throw invalidResponsesRequest(
            `${param}[${index}]: only input_text parts are supported in a function call output`,
            `${param}[${index}]`,
          );
        }
        return object.text;
      })
      .join('');
  }
  throw invalidResponsesRequest(`${param} must be a string`, param);
}

const callIdOf = (item: Json, param: string): string => {
  if (typeof item.call_id !== 'string' || !item.call_id)
    throw invalidResponsesRequest(`${param}.call_id is required`, `${param}.call_id`);
  return item.call_id;
};

const nameOf = (item: Json, param: string): string => {
  if (typeof item.name !== 'string' || !item.name)
    throw invalidResponsesRequest(`${param}.name is required`, `${param}.name`);
  return chatToolName(item.name, item.namespace);
};

/**
 * A function, custom tool or tool search call as the chat function call the model made: a custom
 * tool's text as its `input` argument, a search's arguments as JSON.
 */
function chatCall(item: Json, param: string): { name: string; arguments: string } {
  if (item.type === 'custom_tool_call') {
    if (typeof item.input !== 'string')
      throw invalidResponsesRequest(`${param}.input must be a string`, `${param}.input`);
    return { name: nameOf(item, param), arguments: JSON.stringify({ input: item.input }) };
  }
  if (item.type === 'tool_search_call') {
    const args = typeof item.arguments === 'string' ? item.arguments : JSON.stringify(item.arguments ?? {});
    return { name: 'tool_search', arguments: args };
  }
  return {
    name: nameOf(item, param),
    arguments: typeof item.arguments === 'string' ? item.arguments : '{}',
  };
}

/** What a client tool search answers, as the model reads it: the tools it loaded, which it may now call. */
function searchOutput(item: Json): string {
  const names = translateTools({ tools: item.tools }).tools.map((tool) => asObject(tool.function)?.name);
  return names.length > 0 ? `Tools loaded: ${names.join(', ')}` : 'No tools found.';
}

/** Appends a tool call to the assistant turn it belongs to (parallel calls share one turn). */
function addToolCall(messages: Json[], item: Json, param: string): void {
  const call = { id: callIdOf(item, param), type: 'function', function: chatCall(item, param) };
  const last = messages.at(-1);
  if (last?.role === 'assistant') {
    last.tool_calls = [...((last.tool_calls as Json[] | undefined) ?? []), call];
    return;
  }
  messages.push({ role: 'assistant', content: null, tool_calls: [call] });
}

/** One input item appended to the chat messages. */
function addItem(messages: Json[], item: Json, param: string): void {
  const type = item.type ?? (item.role !== undefined ? 'message' : undefined);
  switch (type) {
    case 'message': {
      const role = String(item.role);
      if (!MESSAGE_ROLES.has(role)) {
        throw invalidResponsesRequest(
          `${param}.role must be one of user, assistant, system, developer`,
          `${param}.role`,
        );
      }
      // Every chat format knows `system`; OpenAI reads it as `developer` for the models that want that.
      const chatRole = role === 'developer' ? 'system' : role;
      messages.push({ role: chatRole, content: chatContent(item.content, role, `${param}.content`) });
      return;
    }
    case 'function_call':
    case 'custom_tool_call':
    case 'tool_search_call':
      addToolCall(messages, item, param);
      return;
    case 'function_call_output':
    case 'custom_tool_call_output':
      messages.push({
        role: 'tool',
        tool_call_id: callIdOf(item, param),
        content: toolOutput(item.output, `${param}.output`),
      });
      return;
    case 'tool_search_output':
      messages.push({ role: 'tool', tool_call_id: callIdOf(item, param), content: searchOutput(item) });
      return;
    case 'additional_tools':
      // Tools, not words: they join the request's tools (tools.ts).
      return;
    case 'reasoning':
      // A reasoning item replayed from an earlier answer: chat formats take no reasoning back.
      return;
    default:
      if (STATEFUL_ITEMS.has(String(type)))
        throw needsStoredState(`${param}.type`, `${param}: ${String(type)}`);
      throw invalidResponsesRequest(
        `${param}.type '${String(type)}' is not supported; use message items, function or custom tool calls and their outputs`,
        `${param}.type`,
        'unsupported_input_item',
      );
  }
}

/** `instructions` and `input` as chat messages. */
export function inputToMessages(instructions: unknown, input: unknown): Json[] {
  const messages: Json[] = [];
  if (instructions !== undefined && instructions !== null) {
    if (typeof instructions !== 'string')
      throw invalidResponsesRequest('instructions must be a string', 'instructions');
    if (instructions) messages.push({ role: 'system', content: instructions });
  }
  if (typeof input === 'string') {
    messages.push({ role: 'user', content: input });
  } else if (Array.isArray(input)) {
    input.forEach((entry, index) => {
      const item = asObject(entry);
      if (!item) throw invalidResponsesRequest(`input[${index}] must be an object`, `input[${index}]`);
      addItem(messages, item, `input[${index}]`);
    });
  } else {
    throw invalidResponsesRequest('input is required: a string or an array of input items', 'input');
  }
  if (!messages.some((message) => message.role !== 'system'))
    throw invalidResponsesRequest('input must hold at least one message', 'input');
  return messages;
}
