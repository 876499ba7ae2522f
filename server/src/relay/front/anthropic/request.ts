import { RelayError } from '../../errors';
import { asObject, type Json } from '../../json-value';

const invalid = (message: string) => RelayError.invalid(message, 'invalid_request');

/** Anthropic content (a string or blocks) as OpenAI message parts, tool calls and tool results. */
function convertContent(role: string, content: unknown) {
  if (typeof content === 'string')
    return { parts: [{ type: 'text', text: content }], toolCalls: [], toolResults: [], reasoning: '' };
  if (!Array.isArray(content)) throw invalid(`messages: content must be a string or an array of blocks`);
  const parts: Json[] = [];
  const toolCalls: Json[] = [];
  const toolResults: Json[] = [];
  let reasoning = '';
  for (const block of content as Json[]) {
    switch (block?.type) {
      case 'text':
        parts.push({ type: 'text', text: String(block.text ?? '') });
        break;
      case 'thinking':
        if (role === 'assistant') reasoning += String(block.thinking ?? '');
        break;
      case 'image': {
        const source = asObject(block.source);
        const url =
          source?.type === 'base64'
            ? `data:${String(source.media_type)};base64,${String(source.data)}`
            : String(source?.url ?? '');
        parts.push({ type: 'image_url', image_url: { url } });
        break;
      }
      case 'tool_use':
        if (role === 'assistant') {
          toolCalls.push({
            id: String(block.id ?? ''),
            type: 'function',
            function: { name: String(block.name ?? ''), arguments: JSON.stringify(block.input ?? {}) },
          });
        }
        break;
      case 'tool_result': {
        const inner = block.content;
        const text =
          typeof inner === 'string'
            ? inner
            : Array.isArray(inner)
              ? (inner as Json[]).map((part) => String(part.text ?? '')).join('')
              : '';
        toolResults.push({ role: 'tool', tool_call_id: String(block.tool_use_id ?? ''), content: text });
        break;
      }
      default:
        break;
    }
  }
  return { parts, toolCalls, toolResults, reasoning };
}

const textOnly = (parts: Json[]) =>
  parts.every((part) => part.type === 'text') ? parts.map((part) => String(part.text)).join('') : parts;

/** Structured output (`output_config.format`, or the beta's `output_format`) as OpenAI's `response_format`. */
function responseFormat(body: Json): Json | undefined {
  const format = asObject(asObject(body.output_config)?.format) ?? asObject(body.output_format);
  const schema = format?.type === 'json_schema' ? asObject(format.schema) : undefined;
  return schema ? { type: 'json_schema', json_schema: { name: 'response', schema } } : undefined;
}

/** An Anthropic Messages request as the equivalent OpenAI chat request (what every adaptor speaks). */
export function anthropicToOpenAi(body: Json): Json {
  if (typeof body.model !== 'string' || !body.model) throw invalid('model: Field required');
  if (typeof body.max_tokens !== 'number') throw invalid('max_tokens: Field required');
  if (!Array.isArray(body.messages) || body.messages.length === 0) throw invalid('messages: Field required');
  const messages: Json[] = [];
  const system = body.system;
  if (typeof system === 'string' && system) messages.push({ role: 'system', content: system });
  if (Array.isArray(system)) {
    const text = (system as Json[]).map((block) => String(block.text ?? '')).join('\n');
    if (text) messages.push({ role: 'system', content: text });
  }
  for (const message of body.messages as Json[]) {
    // A system turn among the messages (Claude Code sends its instructions so) stays a system turn, in place.
    if (message?.role === 'system') {
      const { parts } = convertContent('system', message.content);
      const text = parts.map((part) => (part.type === 'text' ? String(part.text) : '')).join('');
      if (text) messages.push({ role: 'system', content: text });
      continue;
    }
    const role = message?.role === 'assistant' ? 'assistant' : 'user';
    const { parts, toolCalls, toolResults, reasoning } = convertContent(role, message?.content);
    messages.push(...toolResults);
    if (parts.length > 0 || toolCalls.length > 0) {
      messages.push({
        role,
        content: parts.length > 0 ? textOnly(parts) : null,
        // Earlier thinking goes back as OpenAI-compatible reasoning providers take it.
        ...(reasoning ? { reasoning_content: reasoning } : {}),
        ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
      });
    }
  }
  const request: Json = { model: body.model, messages, max_tokens: body.max_tokens };
  if (body.stream === true) request.stream = true;
  if (typeof body.temperature === 'number') request.temperature = body.temperature;
  if (typeof body.top_p === 'number') request.top_p = body.top_p;
  if (Array.isArray(body.stop_sequences)) request.stop = body.stop_sequences;
  if (Array.isArray(body.tools)) {
    request.tools = (body.tools as Json[]).map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.input_schema },
    }));
  }
  const choice = asObject(body.tool_choice);
  if (choice?.type === 'any') request.tool_choice = 'required';
  else if (choice?.type === 'none') request.tool_choice = 'none';
  else if (choice?.type === 'tool')
    request.tool_choice = { type: 'function', function: { name: choice.name } };
  if (choice?.disable_parallel_tool_use === true && request.tools) request.parallel_tool_calls = false;
  const userId = asObject(body.metadata)?.user_id;
  if (typeof userId === 'string' && userId) request.user = userId;
  const format = responseFormat(body);
  if (format) request.response_format = format;
  return request;
}
