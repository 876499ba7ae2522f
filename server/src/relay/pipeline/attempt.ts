import { channelTypeById } from '@switchyard/contract/channel-types';
import { channelSecrets } from '../../domain/channel-secrets';
import type { RelayMetrics } from '../../metrics/relay-metrics';
import { adaptorFor, rerankAdaptorFor } from '../adaptors/registry';
import type { Adaptor, RelayCall } from '../adaptors/types';
import { clientClosed, RelayError, upstreamBroke } from '../errors';
import type { UpstreamClient } from '../upstream';
import type { ClientSink } from './client-sink';
import { withEmbeddingEncoding } from './embedding-encoding';
import { passThroughWire, type Wire } from './native';
import type { AttemptHooks, AttemptResult, Outcome } from './outcome';
import { type PumpDeps, pumpStream, translatedOutput } from './stream';

export interface AttemptDeps extends PumpDeps {
  upstream: UpstreamClient;
  metrics?: RelayMetrics;
}

/**
 * One call on one channel, answered into the sink on success. `finish` runs before the answer's
 * last bytes (the relay settles there, so an answer a client received whole is on the books);
 * `watch` follows a stream's cost. Channel tests use this path too, without them.
 */
export async function attempt(
  deps: AttemptDeps,
  call: RelayCall,
  sink: ClientSink,
  hooks: AttemptHooks = {},
): Promise<AttemptResult> {
  const result = await attemptOnChannel(deps, call, sink, hooks);
  // What a provider or the network says may quote the channel's key: no failure leaves with it.
  return result.ok ? result : { ...result, error: result.error.withoutSecrets(channelSecrets(call.channel)) };
}

async function attemptOnChannel(
  deps: AttemptDeps,
  call: RelayCall,
  sink: ClientSink,
  hooks: AttemptHooks,
): Promise<AttemptResult> {
  const wire = passThroughWire(call) ?? translatedWire(call);
  if (!wire) {
    const name = channelTypeById(call.channel.type)?.name.en ?? `type ${call.channel.type}`;
    // A rerank model listed on a type that does not rerank: the channel's settings, not the provider.
    if (call.mode === 'rerank') {
      return fail(RelayError.invalid(`${name} channels do not serve rerank`, 'unsupported_mode'));
    }
    return fail(
      RelayError.upstream(501, `Relaying to ${name} channels is not available in this version`, {
        type: 'one_api_error',
        code: 'channel_type_not_supported',
      }),
    );
  }
  if (!wire.passThrough && call.native?.untranslatable) return fail(call.native.untranslatable);
  // A passed-through answer is in the client's own format: it skips the front's translating sink.
  const target = wire.passThrough ? (sink.untranslated ?? sink) : sink;
  // The upstream call ends when the client leaves: the sink's signal says so.
  const { signal } = sink;
  try {
    const upstreamRequest = await wire.buildRequest(call);
    const sentAt = performance.now();
    const upstream = wire.transport
      ? await wire.transport(upstreamRequest, call, signal, deps.upstream)
      : await deps.upstream.send(upstreamRequest, signal);
    deps.metrics?.upstreamAnswered(call.mode, call.channel.id, sentAt, hooks.callStartedAt);
    if (upstream.status !== 200 && upstream.status !== 201) {
      return fail(wire.parseError(upstream.status, await deps.upstream.readWhole(upstream.body)));
    }
    if (!call.isStream) {
      const body = await deps.upstream.readWhole(upstream.body);
      const converted = wire.convertResponse(call, body, upstream.contentType);
      if (converted instanceof RelayError) return fail(converted);
      const outcome: Outcome = { usage: converted.usage, text: () => converted.text, complete: true };
      await hooks.finish?.(outcome);
      const answer = withEmbeddingEncoding(call, converted.body);
      target.body(200, converted.contentType, answer, answer === converted.body ? converted.json : undefined);
      return { ok: true, ...outcome };
    }
    if (upstream.contentType.startsWith('application/json')) {
      return fail(wire.parseError(502, await deps.upstream.readWhole(upstream.body)));
    }
    return await pumpStream(deps, call, upstream.body, wire.streamOutput(call), target, hooks);
  } catch (error) {
    if (error instanceof RelayError) return fail(error);
    // A body that breaks off half-way (reset, timeout, the client leaving) is a failed attempt.
    if (signal.aborted) return fail(clientClosed());
    return fail(upstreamBroke(error));
  }
}

/** Each adaptor's translated wire, made once (it is the same for every call). */
const translatedWires = new WeakMap<Adaptor, Wire>();

/**
 * The channel's adaptor (its rerank one for rerank calls), translating between the pipeline's OpenAI
 * shape and its wire format.
 */
function translatedWire(call: RelayCall): Wire | undefined {
  const adaptor =
    call.mode === 'rerank' ? rerankAdaptorFor(call.channel.type) : adaptorFor(call.channel.type);
  if (!adaptor) return undefined;
  let wire = translatedWires.get(adaptor);
  if (!wire) {
    wire = {
      ...adaptor,
      passThrough: false,
      streamOutput: (relayCall) => translatedOutput(adaptor.streamTranslator(relayCall), relayCall),
    };
    translatedWires.set(adaptor, wire);
  }
  return wire;
}

const fail = (error: RelayError): AttemptResult => ({ ok: false, error, started: false });
