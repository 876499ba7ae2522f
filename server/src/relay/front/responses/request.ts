import { asObject, type Json, numberOf } from '../../json-value';
import { invalidResponsesRequest, needsStoredState } from './errors';
import { inputToMessages } from './input';
import { chatToolName, translateTools } from './tools';

/** The chat names of the tools an `allowed_tools` choice lists. */
const allowedNames = (tools: unknown): Set<unknown> =>
  new Set(
    (Array.isArray(tools) ? tools : []).map((entry) => {
      const tool = asObject(entry);
      return typeof tool?.name === 'string' ? chatToolName(tool.name, tool.namespace) : undefined;
    }),
  );

/**
 * `tool_choice` over the chat tools: a mode, one function or custom tool by name, or `allowed_tools`
 * (the tools narrowed to the ones it names, called in its mode).
 */
function withToolChoice(tools: Json[], choice: unknown): { tools: Json[]; choice?: unknown } {
  if (choice === undefined || choice === null) return { tools };
  if (choice === 'none' || choice === 'auto' || choice === 'required') return { tools, choice };
  const object = asObject(choice);
  if (
    (object?.type === 'function' || object?.type === 'custom') &&
    typeof object.name === 'string' &&
    object.name
  )
    return {
      tools,
      choice: { type: 'function', function: { name: chatToolName(object.name, object.namespace) } },
    };
  if (object?.type === 'allowed_tools' && (object.mode === 'auto' || object.mode === 'required')) {
    const names = allowedNames(object.tools);
    return { tools: tools.filter((tool) => names.has(asObject(tool.function)?.name)), choice: object.mode };
  }
  throw invalidResponsesRequest(
    "tool_choice must be 'none', 'auto', 'required', {type: 'function' or 'custom', name} or {type: 'allowed_tools', mode, tools}",
    'tool_choice',
    'unsupported_tool_choice',
  );
}

/** `text.format` as chat's `response_format`; plain text is the default and needs none. */
function responseFormat(text: unknown): Json | undefined {
  if (text === undefined || text === null) return undefined;
  const format = asObject(asObject(text)?.format);
  if (!format) return undefined;
  switch (format.type) {
    case 'text':
      return undefined;
    case 'json_object':
      return { type: 'json_object' };
    case 'json_schema': {
      if (typeof format.name !== 'string' || !format.name)
        throw invalidResponsesRequest('text.format.name is required', 'text.format.name');
      if (!asObject(format.schema))
        throw invalidResponsesRequest('text.format.schema must be an object', 'text.format.schema');
      const schema: Json = { name: format.name, schema: format.schema };
      if (typeof format.description === 'string') schema.description = format.description;
      if (typeof format.strict === 'boolean') schema.strict = format.strict;
      return { type: 'json_schema', json_schema: schema };
    }
    default:
      throw invalidResponsesRequest(
        "text.format.type must be 'text', 'json_object' or 'json_schema'",
        'text.format.type',
      );
  }
}

function optionalNumber(body: Json, field: string): number | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  const number = numberOf(value);
  if (number === undefined) throw invalidResponsesRequest(`${field} must be a number`, field);
  return number;
}

/** Fields that only a stored response or conversation could serve. */
function refuseStatefulFields(body: Json): void {
  for (const field of ['previous_response_id', 'conversation', 'prompt']) {
    if (body[field] !== undefined && body[field] !== null) throw needsStoredState(field);
  }
  if (body.background === true) throw needsStoredState('background', 'background mode');
  if (body.store !== undefined && body.store !== null && typeof body.store !== 'boolean')
    throw invalidResponsesRequest('store must be a boolean', 'store');
  if (body.metadata !== undefined && body.metadata !== null && !asObject(body.metadata))
    throw invalidResponsesRequest('metadata must be an object of strings', 'metadata');
}

/**
 * A Responses API request as the equivalent OpenAI chat request, which the pipeline relays to any
 * channel. The gateway stores nothing: `store` is accepted and ignored (answers say `store: false`).
 */
export function responsesToChat(body: Json): Json {
  if (typeof body.model !== 'string' || !body.model)
    throw invalidResponsesRequest('model is required', 'model');
  refuseStatefulFields(body);
  const chat: Json = { model: body.model, messages: inputToMessages(body.instructions, body.input) };
  if (body.stream === true) chat.stream = true;
  const maxOutput = optionalNumber(body, 'max_output_tokens');
  if (maxOutput !== undefined) {
    if (!Number.isInteger(maxOutput) || maxOutput < 1)
      throw invalidResponsesRequest('max_output_tokens must be a positive integer', 'max_output_tokens');
    chat.max_completion_tokens = maxOutput;
  }
  for (const field of ['temperature', 'top_p']) {
    const value = optionalNumber(body, field);
    if (value !== undefined) chat[field] = value;
  }
  const { tools, choice } = withToolChoice(translateTools(body).tools, body.tool_choice);
  if (tools.length > 0) {
    chat.tools = tools;
    if (choice !== undefined) chat.tool_choice = choice;
    if (typeof body.parallel_tool_calls === 'boolean') chat.parallel_tool_calls = body.parallel_tool_calls;
  }
  const format = responseFormat(body.text);
  if (format) chat.response_format = format;
  const effort = asObject(body.reasoning)?.effort;
  if (typeof effort === 'string') chat.reasoning_effort = effort;
  if (typeof body.user === 'string' && body.user) chat.user = body.user;
  return chat;
}
