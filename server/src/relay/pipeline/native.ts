import { channelTypeById } from '@switchyard/contract/channel-types';
import { channelSecrets } from '../../domain/channel-secrets';
import { redactSecretsInJsonText } from '../../domain/redact-secrets';
import { adaptorFor } from '../adaptors/registry';
import type { Adaptor, ConvertedResponse, NativeFormat, RelayCall } from '../adaptors/types';
import type { RelayError } from '../errors';
import { asObject } from '../json-value';
import type { SseEvent } from './sse';
import type { StreamOutput } from './stream';

/**
 * Native pass-through. A front whose clients speak a provider's own wire format (Anthropic's
 * `/v1/messages`, …) hands the pipeline two things: the OpenAI-shaped call every stage reads (route,
 * reserve, count, the translated attempt) and, in `IncomingCall.native`, the client's own request
 * with its `NativeFormat`. Each attempt then looks at the channel it landed on:
 * - the channel speaks the format: the client's bytes go upstream (the model mapped, a lowered
 *   max-tokens applied) and the answer, body or every stream event, comes back byte for byte, into
 *   the sink beneath the front's translating one (`ClientSink.untranslated`); usage is read from the
 *   native answer (only keep-alive comments join a stream, between events, in long silences); an
 *   upstream error in the provider's shape keeps its body (`RelayError.asSent`), which the front's
 *   error answer sends as it came (front/send-error.ts);
 * - it does not: the usual translation, through the channel's adaptor and the front's sink.
 * Routing, retries, reservation, settlement, logs and channel health are the same stages either way.
 */

/** Whether channels of `channelType` speak `format` natively. */
export const speaks = (format: NativeFormat, channelType: number, model?: string): boolean =>
  format.speaks ? format.speaks(channelType, model) : channelTypeById(channelType)?.apiStyle === format.name;

/**
 * How one attempt talks to its channel and answers the client: an adaptor's translation, or the
 * pass-through. `convertResponse` turns a non-stream 200 body into what the client receives.
 */
export interface Wire extends Omit<Adaptor, 'streamTranslator'> {
  /** True when the answer is in the client's own format (it skips the front's translating sink). */
  passThrough: boolean;
  streamOutput(call: RelayCall): StreamOutput;
}

/** The pass-through wire when the call is native and its channel speaks the client's format. */
export function passThroughWire(call: RelayCall): Wire | undefined {
  const native = call.native;
  const own = adaptorFor(call.channel.type);
  if (!native || !own || !speaks(native.format, call.channel.type, call.upstreamModel)) return undefined;
  const { format } = native;
  // The provider's own channels send its error bodies; a cloud hosting its models (Bedrock, Vertex)
  // has its own shape, which the front words in the client's format instead.
  const ownShape = channelTypeById(call.channel.type)?.apiStyle === format.name;
  return {
    passThrough: true,
    buildRequest: (relayCall) => format.buildRequest(relayCall, native),
    // A cloud may need to re-frame its stream (Bedrock's binary event stream) into the format's events.
    ...(own.transport ? { transport: own.transport } : {}),
    convertResponse(_call, body, contentType): ConvertedResponse | RelayError {
      const reading = format.usage.answer(body);
      return reading instanceof Error ? reading : { ...reading, body, contentType };
    },
    streamOutput: (relayCall) => nativeOutput(format, relayCall),
    // The channel's adaptor reads the error (for health and retries); the client gets it as sent.
    parseError(status, body) {
      const error = own.parseError(status, body);
      return ownShape && inProviderShape(error, body)
        ? error.withBodyAsSent(format.name, body.toString())
        : error;
    },
  };
}

/**
 * An error body the channel's adaptor could read (a JSON object with a message): passed on as sent.
 * Anything else (an HTML page, a proxy's text) is worded by the gateway, as for translated calls.
 */
function inProviderShape(error: RelayError, body: Buffer): boolean {
  if (error.code === 'bad_response_status_code') return false;
  try {
    return asObject(JSON.parse(body.toString())) !== undefined;
  } catch {
    return false;
  }
}

/**
 * A native stream as it came, its events read for usage. Text leaves event by event (a partial
 * event waits for its end), so an error event is known for one before any byte of it leaves, and
 * then leaves rebuilt with every string in its data cleaned of the channel's key.
 */
function nativeOutput(format: NativeFormat, call: RelayCall): StreamOutput {
  const reader = format.usage.stream();
  let pending = '';
  return {
    forward(text, events) {
      try {
        for (const event of events) reader.read(event.data, event.event);
      } catch (failure) {
        return { out: '', failure };
      }
      // Only the new text (and the line end just before it) can hold the blank line that ends an event.
      const from = Math.max(0, pending.length - 2);
      pending += text;
      const end = text === '' ? pending.length : lastEventEnd(pending, from);
      const whole = pending.slice(0, end);
      pending = pending.slice(end);
      return { out: reader.failed() ? withoutSecrets(whole, events, channelSecrets(call.channel)) : whole };
    },
    close: (error) =>
      error ? format.streamError(error.withoutSecrets(channelSecrets(call.channel)), call.requestId) : '',
    usage: () => reader.usage(),
    text: () => reader.text(),
    done: () => reader.done(),
    endedInError: () => reader.failed(),
  };
}

/** Where the text's last complete event ends: after its last blank line at or after `from` (0 when none). */
function lastEventEnd(text: string, from: number): number {
  const blank = /\n\r?\n/g;
  blank.lastIndex = from;
  let end = 0;
  for (let match = blank.exec(text); match; match = blank.exec(text)) {
    end = match.index + match[0].length;
    blank.lastIndex = match.index + 1;
  }
  return end;
}

/**
 * The events of a failed stream as they leave: as sent when none quotes the key, else each rebuilt
 * (in the stream's line ends) with its data cleaned.
 */
function withoutSecrets(whole: string, events: SseEvent[], secrets: string): string {
  const cleaned = events.map((event) => redactSecretsInJsonText(event.data, secrets) ?? '{}');
  if (cleaned.every((data, index) => data === asWritten(events[index]!.data))) return whole;
  const eol = whole.includes('\r\n') ? '\r\n' : '\n';
  return events
    .map(
      (event, index) =>
        `${event.event === undefined ? '' : `event: ${event.event}${eol}`}data: ${cleaned[index]}${eol}${eol}`,
    )
    .join('');
}

/** An event's data as the cleaning writes it back when there is nothing to clean. */
function asWritten(data: string): string {
  try {
    return JSON.stringify(JSON.parse(data));
  } catch {
    return data;
  }
}
