import { asObject, type Json } from '../../json-value';
import { invalidResponsesRequest } from './errors';

/** What a chat tool stands for in the client's request, so that the model's calls go back in its kind. */
export interface ClientTool {
  kind: 'function' | 'custom' | 'tool_search';
  name: string;
  namespace?: string;
}

/** The client's tools by the name the chat request gives them. */
export type ClientTools = Map<string, ClientTool>;

/**
 * OpenAI's hosted web search, which only OpenAI can run. The client offers it and the model decides
 * whether to search: on a translated channel it is left out and the model answers without it.
 */
const WEB_SEARCH = /^web_search(_preview)?(_\d{4}_\d{2}_\d{2})?$/;

/** A namespaced tool's chat name: one name, in the characters every provider allows in a tool name. */
export const chatToolName = (name: string, namespace?: unknown): string =>
  typeof namespace === 'string' && namespace ? `${namespace}__${name}` : name;

/** A custom (freeform) tool takes one text: as a function, it takes that text as its only argument. */
const CUSTOM_PARAMETERS = {
  type: 'object',
  properties: { input: { type: 'string', description: 'The whole input of the tool, as free text.' } },
  required: ['input'],
  additionalProperties: false,
};

/** A custom tool's description, with the grammar its input must follow when it has one. */
function customDescription(tool: Json): string | undefined {
  const description = typeof tool.description === 'string' ? tool.description : '';
  const format = asObject(tool.format);
  if (format?.type !== 'grammar' || typeof format.definition !== 'string') return description || undefined;
  const syntax = typeof format.syntax === 'string' ? `${format.syntax} ` : '';
  return `${description}\n\nThe input must follow this ${syntax}grammar:\n${format.definition}`.trim();
}

/** Whether chat can carry the tool (or leaves it out, as web search): what a translated channel is sent. */
export function isTranslatableTool(entry: unknown): boolean {
  const tool = asObject(entry);
  const type = String(tool?.type);
  if (type === 'tool_search') return tool?.execution === 'client';
  return ['function', 'custom', 'namespace'].includes(type) || WEB_SEARCH.test(type);
}

class ToolTranslation {
  readonly tools: Json[] = [];
  readonly origins: ClientTools = new Map();

  /** One Responses tool (a namespace's tools flattened) as chat function tools. */
  add(entry: unknown, param: string, namespace?: string): void {
    const tool = asObject(entry);
    if (!tool) throw invalidResponsesRequest(`${param} must be an object`, param);
    const type = String(tool.type);
    if (WEB_SEARCH.test(type)) return;
    if (type === 'namespace' && namespace === undefined) {
      const name = this.#name(tool, param);
      if (!Array.isArray(tool.tools))
        throw invalidResponsesRequest(`${param}.tools must be an array`, `${param}.tools`);
      for (const [index, inner] of tool.tools.entries()) this.add(inner, `${param}.tools[${index}]`, name);
      return;
    }
    if (type === 'function' || type === 'custom') {
      const name = this.#name(tool, param);
      const custom = type === 'custom';
      const fn: Json = { name: chatToolName(name, namespace) };
      const description = custom ? customDescription(tool) : tool.description;
      if (typeof description === 'string') fn.description = description;
      if (custom) fn.parameters = CUSTOM_PARAMETERS;
      else if (asObject(tool.parameters)) fn.parameters = tool.parameters;
      if (!custom && typeof tool.strict === 'boolean') fn.strict = tool.strict;
      this.#push(fn, { kind: custom ? 'custom' : 'function', name, ...(namespace ? { namespace } : {}) });
      return;
    }
    // Tool search the client runs itself (over its deferred tools) is a function to the model.
    if (type === 'tool_search' && tool.execution === 'client' && namespace === undefined) {
      const fn: Json = { name: 'tool_search' };
      if (typeof tool.description === 'string') fn.description = tool.description;
      if (asObject(tool.parameters)) fn.parameters = tool.parameters;
      this.#push(fn, { kind: 'tool_search', name: 'tool_search' });
      return;
    }
    throw invalidResponsesRequest(
      `${param}.type '${type}' is not supported: this gateway serves function, custom, namespace and client-executed tool_search tools here`,
      `${param}.type`,
      'unsupported_tool_type',
    );
  }

  #name(tool: Json, param: string): string {
    if (typeof tool.name !== 'string' || !tool.name)
      throw invalidResponsesRequest(`${param}.name is required`, `${param}.name`);
    return tool.name;
  }

  /** A tool offered twice (listed, then loaded again by a tool search) is sent once. */
  #push(fn: Json, origin: ClientTool): void {
    const name = String(fn.name);
    if (this.origins.has(name)) return;
    this.origins.set(name, origin);
    this.tools.push({ type: 'function', function: fn });
  }
}

/**
 * The request's tools as chat function tools, and what each stands for: `tools`, the tools an
 * `additional_tools` input item adds, and those a client tool search loaded (`tool_search_output`).
 */
export function translateTools(body: Json): { tools: Json[]; origins: ClientTools } {
  const translation = new ToolTranslation();
  if (body.tools !== undefined && body.tools !== null) {
    if (!Array.isArray(body.tools)) throw invalidResponsesRequest('tools must be an array', 'tools');
    for (const [index, tool] of body.tools.entries()) translation.add(tool, `tools[${index}]`);
  }
  if (Array.isArray(body.input)) {
    for (const [index, entry] of body.input.entries()) {
      const item = asObject(entry);
      if (item?.type !== 'additional_tools' && item?.type !== 'tool_search_output') continue;
      const param = `input[${index}].tools`;
      if (item.tools === undefined && item.type === 'tool_search_output') continue;
      if (!Array.isArray(item.tools)) throw invalidResponsesRequest(`${param} must be an array`, param);
      for (const [at, tool] of item.tools.entries()) translation.add(tool, `${param}[${at}]`);
    }
  }
  return { tools: translation.tools, origins: translation.origins };
}

/** The text of a custom tool call: the `input` argument the model gave, or what it sent when that is not JSON. */
function customInput(args: string): string {
  try {
    const input = asObject(JSON.parse(args))?.input;
    if (typeof input === 'string') return input;
  } catch {
    // Not JSON: the model wrote the text itself.
  }
  return args;
}

function searchArguments(args: string): Json {
  try {
    return asObject(JSON.parse(args)) ?? {};
  } catch {
    return {};
  }
}

type ItemStatus = 'in_progress' | 'completed' | 'incomplete';

/** A chat tool call as the Responses item of the tool it calls: a function, custom tool or tool search call. */
export function toolCallItem(
  tools: ClientTools,
  id: string,
  status: ItemStatus,
  call: { callId: string; name: string; arguments: string },
): Json {
  const tool = tools.get(call.name);
  const namespace = tool?.namespace ? { namespace: tool.namespace } : {};
  if (tool?.kind === 'custom') {
    return {
      id,
      type: 'custom_tool_call',
      status,
      call_id: call.callId,
      name: tool.name,
      ...namespace,
      input: customInput(call.arguments),
    };
  }
  if (tool?.kind === 'tool_search') {
    return {
      id,
      type: 'tool_search_call',
      status,
      call_id: call.callId,
      execution: 'client',
      arguments: searchArguments(call.arguments),
    };
  }
  return {
    id,
    type: 'function_call',
    status,
    call_id: call.callId,
    name: tool?.name ?? call.name,
    ...namespace,
    arguments: call.arguments,
  };
}
