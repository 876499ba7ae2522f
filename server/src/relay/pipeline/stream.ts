import type { FastifyBaseLogger } from 'fastify';
import { channelSecrets } from '../../domain/channel-secrets';
import { redactSecretsInJsonText } from '../../domain/redact-secrets';
import type { RelayCall, StreamTranslator } from '../adaptors/types';
import { atDeadline, cancelDeadline, type Deadline, moveDeadline } from '../deadlines';
import {
  badUpstreamAnswer,
  endedBeforeItsEnd,
  RelayError,
  upstreamBroke,
  upstreamWentSilent,
} from '../errors';
import type { UpstreamClient } from '../upstream';
import type { ClientSink } from './client-sink';
import type { AttemptHooks, AttemptResult, Outcome } from './outcome';
import { type SseEvent, SseParser } from './sse';

export interface PumpDeps {
  logger?: FastifyBaseLogger;
  /** Its RELAY_ANSWER_LIMIT bounds one event of a stream, its RELAY_TIMEOUT the silence between events. */
  upstream?: Pick<UpstreamClient, 'answerLimitBytes' | 'silenceLimitMs'>;
  /** Silence (ms) after which a stream gets a `: keep-alive` comment; default KEEP_ALIVE_MS. */
  keepAliveMs?: number;
}

const KEEP_ALIVE_MS = 15_000;

/** Sent as a stream's last event when the account cannot pay for more of it. */
const quotaRanOut = () =>
  RelayError.quota(
    'The answer was cut short: your quota cannot pay for more of it',
    'insufficient_user_quota',
  );

/** An error payload (ours or the provider's, as translated): the answer ends there, unfinished. */
const isErrorPayload = (data: string) => data.startsWith('{"error":');

/** A provider's error event may quote the channel's key: it leaves without it, in any field. */
const withoutSecrets = (data: string, key: string): string =>
  redactSecretsInJsonText(data, key) ??
  JSON.stringify(badUpstreamAnswer('an unreadable error event').body(''));

/**
 * How a stream's events reach the client: translated to OpenAI chunks (`translatedOutput`), or as
 * the provider sent them when the client speaks its format (native.ts). It also keeps what the
 * stream reported: usage, text and whether the provider said it is over.
 */
export interface StreamOutput extends Omit<StreamTranslator, 'push'> {
  /**
   * What leaves for one upstream chunk (its text) and the events it completed. A bad event is a
   * `failure` (a RelayError), the events before it still leaving.
   */
  forward(text: string, events: SseEvent[]): { out: string; failure?: unknown };
  /** The stream's last words: our error (a break, the quota), or the format's end marker. */
  close(error: RelayError | undefined): string;
  /** True when the provider ended the stream with its own error event (it needs no other). */
  endedInError(): boolean;
}

/** A provider's stream translated to OpenAI `data:` chunks, ended by `[DONE]` or an OpenAI error event. */
export function translatedOutput(translator: StreamTranslator, call: RelayCall): StreamOutput {
  let endedInError = false;
  return {
    forward(_text, events) {
      let out = '';
      try {
        for (const event of events) {
          for (const data of translator.push(event.data, event.event)) {
            endedInError = isErrorPayload(data);
            out += `data: ${endedInError ? withoutSecrets(data, channelSecrets(call.channel)) : data}\n\n`;
          }
        }
      } catch (failure) {
        return { out, failure };
      }
      return { out };
    },
    close(error) {
      if (error)
        return `data: ${JSON.stringify(error.withoutSecrets(channelSecrets(call.channel)).body(call.requestId))}\n\n`;
      return endedInError ? '' : 'data: [DONE]\n\n';
    },
    usage: () => translator.usage(),
    text: () => translator.text(),
    done: () => translator.done(),
    endedInError: () => endedInError,
  };
}

/**
 * A stream's chunks, read while events keep coming: without one for `limitMs` (bytes that never
 * complete an event, comments alone, or nothing at all) the pending read fails with upstream_timeout
 * and the upstream call is aborted. `heard()` says an event arrived.
 */
class EventSilenceBound implements AsyncIterableIterator<Uint8Array> {
  readonly #iterator: AsyncIterator<Uint8Array>;
  readonly #deadline: Deadline;
  #fail: ((error: unknown) => void) | undefined;
  #expired = false;

  constructor(
    body: AsyncIterable<Uint8Array>,
    private readonly limitMs: number,
  ) {
    this.#iterator = body[Symbol.asyncIterator]();
    this.#deadline = atDeadline(performance.now() + limitMs, this.#expire);
  }

  heard(): void {
    moveDeadline(this.#deadline, performance.now() + this.limitMs);
  }

  /** The stream is over (its end, a failure): the bound no longer runs. */
  stop(): void {
    cancelDeadline(this.#deadline);
  }

  next(): Promise<IteratorResult<Uint8Array>> {
    if (this.#expired) return Promise.reject(upstreamWentSilent());
    return new Promise((resolve, reject) => {
      this.#fail = reject;
      this.#iterator.next().then(resolve, reject);
    });
  }

  return(): Promise<IteratorResult<Uint8Array>> {
    this.stop();
    return this.#iterator.return?.() ?? Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<Uint8Array> {
    return this;
  }

  readonly #expire = () => {
    this.#expired = true;
    this.#fail?.(upstreamWentSilent());
    // The read still pending ends with the aborted call: its outcome is no longer anyone's.
    this.#iterator.return?.()?.catch(() => {});
  };
}

/**
 * Pumps an upstream event stream to the client through the output (translated or passed through),
 * with keep-alive comments in long silences (between events only), and bills what was delivered.
 * A stream in which no event arrives for RELAY_TIMEOUT is broken off (`upstream_timeout`).
 *
 * The head (200) leaves with the first event, so a stream that fails before it (garbage, a cut, a
 * silence, nothing at all) is a failed attempt: not billed, and tried on the next channel. Once
 * events went out, a failure ends the stream with an error event in the client's format (the SDKs
 * raise it). Every stream that ends in an error (a break, a silence, garbage, the quota running out,
 * the provider's own error event) ends without OpenAI's `[DONE]`: `[DONE]` says the answer is whole.
 * So does a stream whose connection closes cleanly before the provider said the answer is over (its
 * end event): it is as broken as a cut one.
 */
export async function pumpStream(
  deps: PumpDeps,
  call: RelayCall,
  body: AsyncIterable<Uint8Array>,
  output: StreamOutput,
  sink: ClientSink,
  hooks: AttemptHooks,
): Promise<AttemptResult> {
  const { signal } = sink;
  const parser = new SseParser(deps.upstream?.answerLimitBytes());
  let started = false;
  let cutShort = false;
  let failure: RelayError | undefined;
  const write = (data: string) => {
    if (!started) sink.startStream();
    started = true;
    sink.write(data);
  };
  let lastWrite = Date.now();
  const keepAliveMs = deps.keepAliveMs ?? KEEP_ALIVE_MS;
  const silent = () => Date.now() - lastWrite >= keepAliveMs && parser.between();
  let recheck: NodeJS.Immediate | undefined;
  const lookForSilence = () => {
    // Timers run before the loop reads its sockets: after a busy spell the upstream's next event may
    // already be waiting. It is read first; only a silence that is still one gets the comment.
    if (silent())
      recheck = setImmediate(() => {
        if (silent()) write(': keep-alive\n\n');
      });
    keepAlive = atDeadline(performance.now() + keepAliveMs, lookForSilence);
  };
  let keepAlive = atDeadline(performance.now() + keepAliveMs, lookForSilence);
  // Events that arrived together leave together: one write per upstream chunk, none held back.
  const forward = (text: string, events: SseEvent[]) => {
    const { out, failure } = output.forward(text, events);
    if (out) {
      write(out);
      lastWrite = Date.now();
    }
    if (failure !== undefined) throw failure;
  };
  const chunks = new EventSilenceBound(body, deps.upstream?.silenceLimitMs() ?? Number.POSITIVE_INFINITY);
  try {
    for await (const chunk of chunks) {
      const text = parser.decode(chunk);
      const events = parser.pushText(text);
      if (events.length > 0) chunks.heard();
      forward(text, events);
      if (hooks.watch && !(await hooks.watch.afford(output.text()))) {
        cutShort = true;
        break;
      }
    }
    if (!cutShort) {
      forward('', parser.end());
      if (!output.done() && !output.endedInError()) throw endedBeforeItsEnd();
    }
  } catch (error) {
    if (!signal.aborted) {
      failure = error instanceof RelayError ? error : upstreamBroke(error);
      deps.logger?.warn({ err: error, requestId: call.requestId }, 'upstream stream broke off');
    }
  } finally {
    cancelDeadline(keepAlive);
    clearImmediate(recheck);
    chunks.stop();
  }
  if (!started && !signal.aborted && !output.done() && !cutShort) {
    // Nothing reached the client: nothing to bill, and another channel may answer.
    return { ok: false, error: failure ?? badUpstreamAnswer('a stream without events'), started: false };
  }
  // Billed for what was delivered, whether the stream ended, broke off or the client left.
  const outcome: Outcome = {
    usage: output.usage(),
    text: () => output.text(),
    complete: output.done() && !cutShort && !failure,
  };
  await hooks.finish?.(outcome);
  if (!signal.aborted) {
    const closing = output.close(cutShort ? quotaRanOut() : failure);
    if (closing) write(closing);
    sink.end();
  }
  return { ok: true, ...outcome };
}
