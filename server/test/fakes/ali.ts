import type http from 'node:http';
import type { FakeHandler, RecordedRequest } from './http-fake';

export const GENERATION_PATH = '/api/v1/services/aigc/text-generation/generation';
export const EMBEDDING_PATH = '/api/v1/services/embeddings/text-embedding/text-embedding';

const EMBEDDING_MODELS = new Set(['text-embedding-v1', 'text-embedding-v2', 'text-embedding-v3']);
const ROLES = new Set(['system', 'user', 'assistant', 'tool']);

export interface FakeDashScopeOptions {
  apiKey: string;
  reply?: string;
  usage?: { input_tokens: number; output_tokens: number };
  /** Answer every call with this DashScope error code instead (at its HTTP status). */
  errorCode?: string;
  /** Stream only: after this many pieces, an `event:error` with this code inside the 200 stream. */
  streamErrorAfter?: { pieces: number; code: string };
  /** When the request offers tools, call this one instead of answering. */
  toolCall?: { name: string; arguments: string };
}

/** DashScope's HTTP status for each error code it answers (its documented status table). */
const ERRORS: Record<string, [status: number, message: string]> = {
  InvalidApiKey: [401, 'Invalid API-key provided.'],
  InvalidParameter: [400, 'Required parameter(s) missing or invalid, please check the request parameters.'],
  InvalidURL: [400, 'Invalid URL provided in your request.'],
  DataInspectionFailed: [400, 'Input or output data may contain inappropriate content.'],
  Arrearage: [400, 'Access denied, please make sure your account is in good standing.'],
  'Throttling.RateQuota': [429, 'Requests rate limit exceeded, please try again later.'],
  ModelNotFound: [404, 'Model not exist.'],
  InternalError: [500, 'An internal error has occured, please try again later or contact service support.'],
};

type Json = Record<string, unknown>;

const asObject = (value: unknown): Json | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;

let requestCounter = 0;
const newRequestId = () => `fake-ds-${++requestCounter}`;

/** An SSE event as DashScope frames it: no space after the colons, the status as a comment line. */
const sseEvent = (id: number, event: 'result' | 'error', status: number, data: unknown) =>
  `id:${id}\nevent:${event}\n:HTTP_STATUS/${status}\ndata:${JSON.stringify(data)}\n\n`;

/** A failure: JSON normally; with `X-DashScope-SSE: enable` framed as one `event:error` at the same status. */
function fail(request: RecordedRequest, res: http.ServerResponse, code: string, message?: string): void {
  const [status, text] = ERRORS[code] ?? [500, code];
  const body = { code, message: message ?? text, request_id: newRequestId() };
  if (request.headers['x-dashscope-sse'] === 'enable') {
    res.writeHead(status, { 'content-type': 'text/event-stream;charset=UTF-8' });
    res.end(sseEvent(1, 'error', status, body));
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** What DashScope refuses in a generation request; undefined when the request is well formed. */
function invalidGeneration(body: Json): string | undefined {
  if (typeof body.model !== 'string' || !body.model)
    return 'Required parameter "model" missing from request.';
  if (body.model.endsWith('-internet')) return `Model not exist: ${body.model}`;
  const messages = asObject(body.input)?.messages;
  if (!Array.isArray(messages) || messages.length === 0)
    return 'Required input parameter missing from request.';
  for (const message of messages) {
    const { role, content } = asObject(message) ?? {};
    if (typeof role !== 'string' || !ROLES.has(role)) return `Invalid role: ${String(role)}`;
    if (typeof content !== 'string') return 'Content must be a string';
  }
  const parameters = asObject(body.parameters);
  if (parameters?.result_format !== 'message') return 'This fake answers result_format "message" only';
  const topP = parameters.top_p;
  if (topP !== undefined && (typeof topP !== 'number' || topP <= 0 || topP >= 1))
    return 'Range of top_p should be (0.0, 1.0)';
  return undefined;
}

function embed(request: RecordedRequest, res: http.ServerResponse) {
  const body = request.json ?? {};
  const texts = asObject(body.input)?.texts;
  if (!EMBEDDING_MODELS.has(String(body.model))) return fail(request, res, 'ModelNotFound');
  if (!Array.isArray(texts) || texts.length === 0 || !texts.every((text) => typeof text === 'string')) {
    return fail(request, res, 'InvalidParameter', 'input.texts must be a list of strings');
  }
  const dimension = Number(asObject(body.parameters)?.dimension ?? 3);
  // Answered out of order on purpose: `text_index` says where each vector belongs.
  const embeddings = texts
    .map((_, index) => ({
      text_index: index,
      embedding: Array.from({ length: dimension }, (__, d) => index + d / 4),
    }))
    .reverse();
  const tokens = texts.reduce((sum, text) => sum + text.length, 0);
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({ output: { embeddings }, usage: { total_tokens: tokens }, request_id: newRequestId() }),
  );
}

/**
 * DashScope's native API: text generation (JSON, or SSE with `X-DashScope-SSE: enable`, where
 * `incremental_output` decides between deltas and the whole text so far) and text embedding.
 * The key must come as `Authorization: Bearer <key>`.
 */
export function dashScopeHandler(options: FakeDashScopeOptions): FakeHandler {
  const reply = options.reply ?? 'Hello from the fake Qwen';
  const usage = options.usage ?? { input_tokens: 17, output_tokens: 8 };
  return (request, res) => {
    if (request.method !== 'POST') return fail(request, res, 'InvalidURL');
    if (request.headers.authorization !== `Bearer ${options.apiKey}`)
      return fail(request, res, 'InvalidApiKey');
    if (!String(request.headers['content-type']).startsWith('application/json')) {
      return fail(request, res, 'InvalidParameter', 'Content-Type must be application/json');
    }
    if (options.errorCode) return fail(request, res, options.errorCode);
    if (request.url === EMBEDDING_PATH) return embed(request, res);
    if (request.url !== GENERATION_PATH) return fail(request, res, 'InvalidURL');
    const body = request.json ?? {};
    const invalid = invalidGeneration(body);
    if (invalid)
      return fail(
        request,
        res,
        invalid.startsWith('Model not') ? 'ModelNotFound' : 'InvalidParameter',
        invalid,
      );
    const parameters = asObject(body.parameters) ?? {};
    const total = (output: number) => ({
      input_tokens: usage.input_tokens,
      output_tokens: output,
      total_tokens: usage.input_tokens + output,
    });
    const tools = Array.isArray(parameters.tools) && parameters.tools.length > 0;
    if (request.headers['x-dashscope-sse'] !== 'enable') {
      const message =
        tools && options.toolCall
          ? {
              role: 'assistant',
              content: '',
              tool_calls: [{ index: 0, id: 'call_fake_1', type: 'function', function: options.toolCall }],
            }
          : { role: 'assistant', content: reply };
      const finish = tools && options.toolCall ? 'tool_calls' : 'stop';
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          output: { choices: [{ finish_reason: finish, message }] },
          usage: total(usage.output_tokens),
          request_id: newRequestId(),
        }),
      );
      return;
    }
    const requestId = newRequestId();
    const incremental = parameters.incremental_output === true;
    res.writeHead(200, { 'content-type': 'text/event-stream;charset=UTF-8' });
    const pieces = reply.split(' ').map((word, index) => (index ? ` ${word}` : word));
    let sent = '';
    for (const [index, piece] of pieces.entries()) {
      if (options.streamErrorAfter && index === options.streamErrorAfter.pieces) {
        const { code } = options.streamErrorAfter;
        const [status, message] = ERRORS[code] ?? [500, code];
        res.end(sseEvent(index + 1, 'error', status, { code, message, request_id: requestId }));
        return;
      }
      const last = index === pieces.length - 1;
      sent += piece;
      const event = {
        output: {
          choices: [
            {
              message: { role: 'assistant', content: incremental ? piece : sent },
              finish_reason: last ? 'stop' : 'null',
            },
          ],
        },
        // A running total: the last event holds the whole count.
        usage: total(last ? usage.output_tokens : index + 1),
        request_id: requestId,
      };
      res.write(sseEvent(index + 1, 'result', 200, event));
    }
    res.end();
  };
}
