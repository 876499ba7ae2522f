import type { FastifyBaseLogger } from 'fastify';
import type { RelayCall, StreamTranslator } from '../adaptors/types';
import { RelayError } from '../errors';
import type { AttemptHooks, AttemptResult, Outcome } from './attempt';
import type { ClientSink } from './client-sink';
import { SseParser } from './sse';

export interface PumpDeps {
  logger?: FastifyBaseLogger;
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

/**
 * Pumps an upstream event stream to the client through the adaptor's translator, with keep-alive
 * comments in long silences, and bills what was delivered before the closing `[DONE]`.
 */
export async function pumpStream(
  deps: PumpDeps,
  call: RelayCall,
  body: AsyncIterable<Uint8Array>,
  translator: StreamTranslator,
  sink: ClientSink,
  hooks: AttemptHooks,
): Promise<AttemptResult> {
  const { signal } = sink;
  const parser = new SseParser();
  let cutShort = false;
  sink.startStream();
  let lastWrite = Date.now();
  const keepAliveMs = deps.keepAliveMs ?? KEEP_ALIVE_MS;
  const keepAlive = setInterval(() => {
    if (Date.now() - lastWrite >= keepAliveMs) sink.write(': keep-alive\n\n');
  }, keepAliveMs);
  // Events that arrived together leave together: one write per upstream chunk, none held back.
  const forward = (events: Array<{ event?: string; data: string }>) => {
    let out = '';
    for (const event of events) {
      for (const data of translator.push(event.data, event.event)) out += `data: ${data}\n\n`;
    }
    if (!out) return;
    sink.write(out);
    lastWrite = Date.now();
  };
  try {
    for await (const chunk of body) {
      forward(parser.push(chunk));
      if (hooks.watch && !(await hooks.watch.afford(translator.text()))) {
        cutShort = true;
        break;
      }
    }
    if (!cutShort) forward(parser.end());
  } catch (error) {
    if (!signal.aborted)
      deps.logger?.warn({ err: error, requestId: call.requestId }, 'upstream stream broke off');
  } finally {
    clearInterval(keepAlive);
  }
  // Billed for what was delivered, whether the stream ended, broke off or the client left.
  const outcome: Outcome = {
    usage: translator.usage(),
    text: () => translator.text(),
    complete: translator.done() && !cutShort,
  };
  await hooks.finish?.(outcome);
  if (!signal.aborted) {
    if (cutShort) sink.write(`data: ${JSON.stringify(quotaRanOut().body(call.requestId))}\n\n`);
    sink.write('data: [DONE]\n\n');
    sink.end();
  }
  return { ok: true, ...outcome };
}
