import { ChannelTypeId } from '@switchyard/contract/channel-types';
import { badUpstreamAnswer, type RelayError } from '../../errors';
import { asObject, type Json, numberOf } from '../../json-value';
import { answerObject, missing } from '../answer-check';
import { withTopLevelFields } from '../native-body';
import type {
  NativeFormat,
  NativeReading,
  NativeRequest,
  NativeStreamReader,
  RelayCall,
  UpstreamRequest,
  Usage,
} from '../types';
import { readUsage } from '.';
import { brokenStreamEvents, type ResponseShellContext, responseShell } from './responses-wire';

/**
 * The body sent upstream: the client's bytes with the mapped model, the pipeline's lowered limit, and
 * `store: false` unless the client asked `store: true` (a stateless gateway keeps nothing on the
 * operator's account by default, where OpenAI would store every answer).
 */
function upstreamBody(call: RelayCall, native: NativeRequest, model: string): Buffer {
  const fields: Json = {};
  if (model !== native.body.model) fields.model = model;
  // The translated request names the client's limit max_completion_tokens; a limit the pipeline set is max_tokens.
  const limit = numberOf(call.body?.max_completion_tokens ?? call.body?.max_tokens);
  const asked = numberOf(native.body.max_output_tokens);
  if (limit !== undefined && (asked === undefined || limit < asked)) fields.max_output_tokens = limit;
  if (native.body.store !== true && native.body.store !== false) fields.store = false;
  return Object.keys(fields).length > 0 ? withTopLevelFields(native.rawBody, fields) : native.rawBody;
}

/** OpenAI's own API: `{base}/v1/responses` (a base ending in /v1 taken as it is), the key as Bearer. */
function openAiRequest(call: RelayCall, native: NativeRequest): UpstreamRequest {
  const base = call.baseUrl.replace(/\/v1$/, '');
  return request(`${base}/v1/responses`, { authorization: `Bearer ${call.apiKey}` }, call, native);
}

/**
 * Azure OpenAI's v1 API, the one Azure documents for Responses: `{endpoint}/openai/v1/responses`,
 * no api-version, the deployment named in the body's model (named after the model, dots removed, as
 * for chat).
 */
function azureRequest(call: RelayCall, native: NativeRequest): UpstreamRequest {
  const deployment = call.upstreamModel.replace(/\./g, '');
  return request(`${call.baseUrl}/openai/v1/responses`, { 'api-key': call.apiKey }, call, native, deployment);
}

function request(
  url: string,
  auth: Record<string, string>,
  call: RelayCall,
  native: NativeRequest,
  model = call.upstreamModel,
): UpstreamRequest {
  return {
    url,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: call.isStream ? 'text/event-stream' : 'application/json',
      ...auth,
    },
    body: upstreamBody(call, native, model),
  };
}

/** What an output item adds to the generated text, counted when usage is missing. */
function itemText(item: Json): string {
  if (item.type === 'function_call') return String(item.name ?? '') + String(item.arguments ?? '');
  if (item.type !== 'message' || !Array.isArray(item.content)) return '';
  return item.content
    .map((part) => asObject(part))
    .map((part) => (part?.type === 'output_text' && typeof part.text === 'string' ? part.text : ''))
    .join('');
}

function readAnswer(body: Buffer): NativeReading | RelayError {
  const answer = answerObject(body);
  if (answer instanceof Error) return answer;
  if (answer.object !== 'response') return missing('"object": "response"');
  const output = Array.isArray(answer.output) ? answer.output : [];
  const text = output.map((item) => itemText(asObject(item) ?? {})).join('');
  return { usage: readUsage(answer.usage), text };
}

/** Where a passed-through stream got to: the response it announced and its last event's number. */
interface StreamPlace {
  response: Json | undefined;
  sequence: number;
}

/** The Responses API's typed events: text in deltas, usage in the terminal response. */
class ResponsesEventReader implements NativeStreamReader {
  #usage: Usage | undefined;
  #text = '';
  #done = false;
  #failed = false;

  constructor(private readonly place: StreamPlace) {}

  read(data: string): void {
    const event = answerObject(data);
    if (event instanceof Error) throw event;
    if (typeof event.type !== 'string') throw badUpstreamAnswer('a stream event without a type');
    const sequence = numberOf(event.sequence_number);
    if (sequence !== undefined) this.place.sequence = sequence;
    const response = asObject(event.response);
    if (response) this.place.response = response;
    // The terminal response carries the usage (response.failed too, for what was generated).
    if (response?.usage) this.#usage = readUsage(response.usage) ?? this.#usage;
    if (
      event.type === 'response.output_text.delta' ||
      event.type === 'response.function_call_arguments.delta'
    )
      this.#text += typeof event.delta === 'string' ? event.delta : '';
    else if (event.type === 'response.completed' || event.type === 'response.incomplete') this.#done = true;
    else if (event.type === 'error' || event.type === 'response.failed') this.#failed = true;
  }

  usage = () => this.#usage;
  text = () => this.#text;
  done = () => this.#done;
  failed = () => this.#failed;
}

/**
 * OpenAI's Responses API as a native format, for one call: OpenAI and Azure channels get the client's
 * request as it is. A stream the gateway breaks off ends as a translated one does, numbered on from
 * the upstream's last event and naming its response.
 */
export function responsesNative(context: ResponseShellContext): NativeFormat {
  const place: StreamPlace = { response: undefined, sequence: -1 };
  return {
    // The error shape of OpenAI's API: an upstream error is passed on as the OpenAI front sends errors.
    name: 'openai',
    speaks: (channelType) => channelType === ChannelTypeId.openai || channelType === ChannelTypeId.azure,
    buildRequest: (call, native) =>
      call.channel.type === ChannelTypeId.azure ? azureRequest(call, native) : openAiRequest(call, native),
    usage: { answer: readAnswer, stream: () => new ResponsesEventReader(place) },
    streamError: (error, requestId) => {
      const response = place.response ?? responseShell({ ...context, requestId }, 'failed');
      return brokenStreamEvents(error.body(requestId).error, response, place.sequence + 1);
    },
  };
}
