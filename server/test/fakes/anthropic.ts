import type http from 'node:http';
import { type FakeHandler, sendJson } from './http-fake';

export interface FakeToolUse {
  id: string;
  name: string;
  input: Record<string, unknown>;
}

export interface FakeAnthropicOptions {
  apiKey: string;
  reply?: string;
  toolUse?: FakeToolUse;
  /** An extended-thinking block before the answer (streamed as thinking_delta then signature_delta). */
  thinking?: { thinking: string; signature: string };
  usage?: {
    input_tokens: number;
    output_tokens: number;
    cache_read_input_tokens?: number;
    cache_creation_input_tokens?: number;
  };
  /** What /v1/messages/count_tokens answers. */
  countTokens?: number;
  /** Filled with the exact bytes of each answer body the fake sent, in order. */
  sent?: string[];
  stopReason?: string;
  /** Answer every call with this HTTP status and Anthropic error type instead. */
  error?: { status: number; type: string; message?: string };
  /** Streams only: break off with an `error` event after the first text delta. */
  streamError?: { type: string; message: string };
}

const errorBody = (type: string, message: string) => ({
  type: 'error',
  error: { type, message },
  request_id: 'req_011FakeRequest',
});

function message(options: FakeAnthropicOptions, model: string) {
  const usage = options.usage ?? { input_tokens: 10, output_tokens: 3 };
  const content: Array<Record<string, unknown>> = [];
  if (options.thinking) content.push({ type: 'thinking', ...options.thinking });
  if (options.reply !== undefined) content.push({ type: 'text', text: options.reply });
  if (options.toolUse) content.push({ type: 'tool_use', ...options.toolUse });
  return {
    id: 'msg_01FakeMessage',
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: options.stopReason ?? (options.toolUse ? 'tool_use' : 'end_turn'),
    stop_sequence: null,
    usage,
  };
}

/** The exact bytes of one event, as Anthropic frames them. */
const frame = (event: Record<string, unknown> & { type: string }) =>
  `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;

function thinkingEvents(thinking: { thinking: string; signature: string }, index: number) {
  return [
    { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } },
    ...thinking.thinking.split(/(?= )/).map((piece) => ({
      type: 'content_block_delta',
      index,
      delta: { type: 'thinking_delta', thinking: piece },
    })),
    { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: thinking.signature } },
    { type: 'content_block_stop', index },
  ];
}

/** The documented event sequence; output_tokens in message_delta is the running total, as Anthropic sends it. */
function stream(response: http.ServerResponse, options: FakeAnthropicOptions, model: string): void {
  const full = message(options, model);
  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
  });
  let sent = '';
  const res = {
    write: (text: string) => {
      sent += text;
      response.write(text);
    },
    end: () => {
      options.sent?.push(sent);
      response.end();
    },
  };
  const writeEvent = (event: Record<string, unknown> & { type: string }) => res.write(frame(event));
  writeEvent({
    type: 'message_start',
    message: {
      ...full,
      content: [],
      stop_reason: null,
      usage: { ...full.usage, output_tokens: 1 },
    },
  });
  let index = 0;
  if (options.thinking) {
    for (const event of thinkingEvents(options.thinking, index)) writeEvent(event);
    index += 1;
  }
  if (options.reply !== undefined) {
    writeEvent({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
    writeEvent({ type: 'ping' });
    for (const piece of options.reply.split(/(?= )/)) {
      writeEvent({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } });
      if (options.streamError) {
        writeEvent(errorBody(options.streamError.type, options.streamError.message));
        res.end();
        return;
      }
    }
    writeEvent({ type: 'content_block_stop', index });
    index += 1;
  }
  if (options.toolUse) {
    const { id, name, input } = options.toolUse;
    writeEvent({
      type: 'content_block_start',
      index,
      content_block: { type: 'tool_use', id, name, input: {} },
    });
    const json = JSON.stringify(input);
    const middle = Math.floor(json.length / 2);
    for (const part of ['', json.slice(0, middle), json.slice(middle)]) {
      writeEvent({
        type: 'content_block_delta',
        index,
        delta: { type: 'input_json_delta', partial_json: part },
      });
    }
    writeEvent({ type: 'content_block_stop', index });
  }
  writeEvent({
    type: 'message_delta',
    delta: { stop_reason: full.stop_reason, stop_sequence: null },
    usage: { output_tokens: full.usage.output_tokens },
  });
  writeEvent({ type: 'message_stop' });
  res.end();
}

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,128}$/;

/** What Anthropic refuses in `tools` and `output_config`: bad or repeated tool names, a format without a schema. */
function refusal(body: Record<string, unknown>): string | undefined {
  const names = new Set<string>();
  for (const [index, tool] of (Array.isArray(body.tools) ? body.tools : []).entries()) {
    const { name, input_schema } = (tool ?? {}) as Record<string, unknown>;
    if (typeof name !== 'string' || !TOOL_NAME.test(name))
      return `tools.${index}.name: String should match pattern '${TOOL_NAME.source}'`;
    if (names.has(name)) return 'tools: Tool names must be unique.';
    names.add(name);
    if (typeof input_schema !== 'object' || input_schema === null)
      return `tools.${index}.input_schema: Field required`;
  }
  if (body.output_config === undefined) return undefined;
  const format = (body.output_config as { format?: { type?: unknown; schema?: unknown } } | null)?.format;
  if (format?.type !== 'json_schema' || typeof format.schema !== 'object' || format.schema === null)
    return 'output_config.format: a json_schema format with a schema is required';
  return undefined;
}

/**
 * A fake Anthropic Messages API (and count_tokens): checks the path, key and version header, then
 * answers as Anthropic does. What it received is in the HttpFake's `requests`.
 */
export function anthropicHandler(options: FakeAnthropicOptions): FakeHandler {
  return (request, res) => {
    const counting = request.url === '/v1/messages/count_tokens';
    if (request.method !== 'POST' || (request.url !== '/v1/messages' && !counting)) {
      return sendJson(res, 404, errorBody('not_found_error', `Not found: ${request.url}`));
    }
    if (request.headers['x-api-key'] !== options.apiKey) {
      return sendJson(res, 401, errorBody('authentication_error', 'invalid x-api-key'));
    }
    if (!request.headers['anthropic-version']) {
      return sendJson(res, 400, errorBody('invalid_request_error', 'anthropic-version: header is required'));
    }
    const body = request.json ?? {};
    const failure = options.error && {
      status: options.error.status,
      body: errorBody(options.error.type, options.error.message ?? `fake says ${options.error.type}`),
    };
    if (counting) {
      if (!Array.isArray(body.messages))
        return sendJson(res, 400, errorBody('invalid_request_error', 'messages: Field required'));
      if (failure) return sendJson(res, failure.status, failure.body);
      return sendJson(res, 200, { input_tokens: options.countTokens ?? 42 });
    }
    if (typeof body.max_tokens !== 'number' || !Array.isArray(body.messages)) {
      return sendJson(res, 400, errorBody('invalid_request_error', 'max_tokens: Field required'));
    }
    const refused = refusal(body);
    if (refused) return sendJson(res, 400, errorBody('invalid_request_error', refused));
    if (failure) return sendJson(res, failure.status, failure.body);
    const model = String(body.model);
    if (body.stream === true) return stream(res, options, model);
    const answer = JSON.stringify(message(options, model));
    options.sent?.push(answer);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(answer);
  };
}
