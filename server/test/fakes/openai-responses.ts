import type http from 'node:http';
import { type FakeHandler, sendJson } from './http-fake';

export interface FakeResponsesOptions {
  reply?: string;
  /** A function call after the text. */
  functionCall?: { callId: string; name: string; arguments: string };
  usage?: { input: number; output: number; cached?: number; reasoning?: number };
  /** Filled with the exact bytes of each answer body the fake sent, in order. */
  sent?: string[];
  /** Answer every call with this HTTP status and OpenAI error instead. */
  error?: { status: number; type: string; code: string | null; message?: string };
  /** Streams only: break the connection after the first text delta. */
  cutAfterFirstDelta?: boolean;
}

/** A usage object as the Responses API reports it. */
function usageOf(options: FakeResponsesOptions) {
  const { input, output, cached = 0, reasoning = 0 } = options.usage ?? { input: 12, output: 4 };
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: cached },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: reasoning },
    total_tokens: input + output,
  };
}

const messageItem = (text: string, status: string) => ({
  id: 'msg_fake1',
  type: 'message',
  status,
  role: 'assistant',
  content: [{ type: 'output_text', text, annotations: [], logprobs: [] }],
});

const callItem = (call: NonNullable<FakeResponsesOptions['functionCall']>, args: string, status: string) => ({
  id: 'fc_fake1',
  type: 'function_call',
  status,
  call_id: call.callId,
  name: call.name,
  arguments: args,
});

/** The response object; `output` and `usage` only once it is whole. */
function response(options: FakeResponsesOptions, request: Record<string, unknown>, status: string) {
  const done = status === 'completed';
  const output: unknown[] = [];
  if (done && options.reply !== undefined) output.push(messageItem(options.reply, 'completed'));
  if (done && options.functionCall)
    output.push(callItem(options.functionCall, options.functionCall.arguments, 'completed'));
  return {
    id: 'resp_fake0123',
    object: 'response',
    created_at: 1_750_000_000,
    status,
    error: null,
    incomplete_details: null,
    instructions: request.instructions ?? null,
    max_output_tokens: request.max_output_tokens ?? null,
    model: `${String(request.model)}-2024-08-06`,
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    store: request.store ?? true,
    temperature: 1,
    text: { format: { type: 'text' } },
    tool_choice: 'auto',
    tools: request.tools ?? [],
    top_p: 1,
    truncation: 'disabled',
    usage: done ? usageOf(options) : null,
    metadata: {},
  };
}

/** The typed events of a streamed answer, each framed with its `event:` line and numbered. */
function events(options: FakeResponsesOptions, request: Record<string, unknown>): string[] {
  const list: Array<Record<string, unknown> & { type: string }> = [];
  const add = (type: string, data: Record<string, unknown>) => list.push({ type, ...data });
  add('response.created', { response: response(options, request, 'in_progress') });
  add('response.in_progress', { response: response(options, request, 'in_progress') });
  const text = options.reply ?? '';
  const where = { item_id: 'msg_fake1', output_index: 0, content_index: 0 };
  add('response.output_item.added', {
    output_index: 0,
    item: { ...messageItem('', 'in_progress'), content: [] },
  });
  add('response.content_part.added', { ...where, part: { type: 'output_text', text: '', annotations: [] } });
  for (const piece of text.match(/\S+\s*/g) ?? [])
    add('response.output_text.delta', { ...where, delta: piece, logprobs: [] });
  add('response.output_text.done', { ...where, text, logprobs: [] });
  add('response.content_part.done', { ...where, part: { type: 'output_text', text, annotations: [] } });
  add('response.output_item.done', { output_index: 0, item: messageItem(text, 'completed') });
  const call = options.functionCall;
  if (call) {
    add('response.output_item.added', { output_index: 1, item: callItem(call, '', 'in_progress') });
    add('response.function_call_arguments.delta', {
      item_id: 'fc_fake1',
      output_index: 1,
      delta: call.arguments,
    });
    add('response.function_call_arguments.done', {
      item_id: 'fc_fake1',
      output_index: 1,
      arguments: call.arguments,
    });
    add('response.output_item.done', { output_index: 1, item: callItem(call, call.arguments, 'completed') });
  }
  add('response.completed', { response: response(options, request, 'completed') });
  return list.map(
    (event, sequence_number) =>
      `event: ${event.type}\ndata: ${JSON.stringify({ ...event, sequence_number })}\n\n`,
  );
}

/**
 * OpenAI's Responses API (`POST /v1/responses`, or Azure's `/openai/v1/responses`): a JSON response
 * object, or its typed SSE events with `event:` lines, as OpenAI sends them.
 */
export function responsesHandler(options: FakeResponsesOptions = {}): FakeHandler {
  return (request, res: http.ServerResponse) => {
    const body = request.json ?? {};
    if (!request.url.endsWith('/v1/responses'))
      return sendJson(res, 404, {
        error: { message: `no route ${request.url}`, type: 'invalid_request_error' },
      });
    if (options.error) {
      const error = {
        message: options.error.message ?? 'upstream says no',
        type: options.error.type,
        param: null,
        code: options.error.code,
      };
      const text = JSON.stringify({ error });
      options.sent?.push(text);
      res.writeHead(options.error.status, { 'content-type': 'application/json' });
      return void res.end(text);
    }
    if (body.stream !== true) {
      const text = JSON.stringify(response(options, body, 'completed'));
      options.sent?.push(text);
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(text);
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const frames = events(options, body);
    if (options.cutAfterFirstDelta) {
      const cut = frames.findIndex((frame) => frame.startsWith('event: response.output_text.delta')) + 1;
      const head = frames.slice(0, cut).join('');
      options.sent?.push(head);
      res.write(head, () => setTimeout(() => res.destroy(), 50));
      return;
    }
    const text = frames.join('');
    options.sent?.push(text);
    res.end(text);
  };
}
