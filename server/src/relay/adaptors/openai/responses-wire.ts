import { asObject, type Json, numberOf } from '../../json-value';

/**
 * OpenAI's Responses API as both sides write it: the response object and the stream's events. The
 * translating front (front/responses/) answers in them, and a passed-through stream the gateway
 * breaks off ends in them (responses-native.ts).
 */

/** What every response object of one call shares: its id, model, time and the request it answers. */
export interface ResponseShellContext {
  /** The call's request id: `resp_<id>` names the response. */
  requestId: string;
  /** The model as the client named it. */
  model: string;
  createdAt: number;
  /** The client's Responses request, echoed back as OpenAI does. */
  request: Json;
}

/** The response object with the request's settings echoed, as OpenAI answers them; no output yet. */
export function responseShell(context: ResponseShellContext, status: string): Json {
  const { request } = context;
  const reasoning = asObject(request.reasoning);
  return {
    id: `resp_${context.requestId}`,
    object: 'response',
    created_at: context.createdAt,
    status,
    background: false,
    error: null,
    incomplete_details: null,
    instructions: typeof request.instructions === 'string' ? request.instructions : null,
    max_output_tokens: numberOf(request.max_output_tokens) ?? null,
    metadata: asObject(request.metadata) ?? {},
    model: context.model,
    output: [],
    parallel_tool_calls:
      typeof request.parallel_tool_calls === 'boolean' ? request.parallel_tool_calls : true,
    previous_response_id: null,
    reasoning: { effort: typeof reasoning?.effort === 'string' ? reasoning.effort : null, summary: null },
    // Stateless: nothing is kept, whatever the request asked.
    store: false,
    temperature: numberOf(request.temperature) ?? null,
    text: { format: asObject(asObject(request.text)?.format) ?? { type: 'text' } },
    tool_choice: request.tool_choice ?? 'auto',
    tools: Array.isArray(request.tools) ? request.tools : [],
    top_p: numberOf(request.top_p) ?? null,
    truncation: 'disabled',
    usage: null,
    user: typeof request.user === 'string' ? request.user : null,
  };
}

/** One Responses stream event, framed with its `event:` line and numbered. */
export const responsesEvent = (type: string, sequence: number, data: Json): string =>
  `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence, ...data })}\n\n`;

/**
 * How a stream the gateway breaks off ends (the upstream broke, a silence, the quota), translated or
 * passed through: an `error` event, then response.failed with `response` marked failed. They are
 * numbered from `sequence`.
 */
export function brokenStreamEvents(error: Json, response: Json, sequence: number): string {
  const code = typeof error.code === 'string' ? error.code : null;
  const message = String(error.message ?? 'The answer broke off');
  const param = typeof error.param === 'string' && error.param ? error.param : null;
  const type = typeof error.type === 'string' ? error.type : 'server_error';
  const failed = { ...response, status: 'failed', error: { code: code ?? 'server_error', message } };
  // The fields flat as the API reference documents them, and nested as OpenAI sends them (the SDKs raise on that).
  return (
    responsesEvent('error', sequence, { code, message, param, error: { type, code, message, param } }) +
    responsesEvent('response.failed', sequence + 1, { response: failed })
  );
}
