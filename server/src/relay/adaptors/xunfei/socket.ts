import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import type WebSocket from 'ws';
import type { ClientSignal } from '../../client-signal';
import { clientClosed, upstreamUnreachable } from '../../errors';

// ws is loaded with the first Spark call: only iFlytek channels need it.
const loadWebSocket = () => createRequire(import.meta.url)('ws') as typeof WebSocket;

const HANDSHAKE_TIMEOUT_MS = 10_000;

export type Handshake =
  | { ok: true; socket: WebSocket }
  | { ok: false; status: number; contentType: string; body: Buffer };

async function refusal(response: IncomingMessage, limit: number): Promise<Handshake> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response) {
    size += (chunk as Buffer).length;
    // A refusal's words are short: what goes beyond the limit is not read.
    if (size > limit) break;
    chunks.push(chunk as Buffer);
  }
  return {
    ok: false,
    status: response.statusCode ?? 502,
    contentType: String(response.headers['content-type'] ?? ''),
    body: Buffer.concat(chunks),
  };
}

/**
 * Opens the socket; a refused handshake answers its HTTP status and body, like any upstream error.
 * No frame (nor refusal body) larger than `maxBytes` is taken: the socket fails instead.
 */
export function openSocket(url: string, signal: ClientSignal, maxBytes: number): Promise<Handshake> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(clientClosed());
    const socket = new (loadWebSocket())(url, {
      handshakeTimeout: HANDSHAKE_TIMEOUT_MS,
      maxPayload: maxBytes,
    });
    const abort = () => {
      socket.terminate();
      reject(clientClosed());
    };
    signal.addEventListener('abort', abort, { once: true });
    const settle = () => signal.removeEventListener('abort', abort);
    socket.once('open', () => {
      settle();
      resolve({ ok: true, socket });
    });
    socket.once('unexpected-response', (_request, response) => {
      settle();
      // Terminating a socket that never opened also emits 'error'; the promise is settled by then.
      refusal(response, maxBytes)
        .then(resolve, reject)
        .finally(() => socket.terminate());
    });
    socket.once('error', (error) => {
      settle();
      reject(upstreamUnreachable(error));
    });
  });
}

/** The text frames a socket receives, read one at a time; undefined once it closed (or went silent too long). */
export class FrameReader {
  readonly #frames: string[] = [];
  #wake: (() => void) | undefined;
  #closed = false;

  /** `silenceMs`: the longest wait for a frame (RELAY_TIMEOUT, as for HTTP answers). */
  constructor(
    private readonly socket: WebSocket,
    signal: ClientSignal,
    private readonly silenceMs: number,
  ) {
    socket.on('message', (data) => {
      this.#frames.push(data.toString());
      this.#wake?.();
    });
    const end = () => {
      this.#closed = true;
      this.#wake?.();
    };
    socket.on('close', end);
    socket.on('error', end);
    signal.addEventListener('abort', () => this.close(), { once: true });
  }

  async next(): Promise<string | undefined> {
    while (this.#frames.length === 0 && !this.#closed) {
      const arrived = new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
      let timer: NodeJS.Timeout | undefined;
      const silent = new Promise<'silent'>((resolve) => {
        timer = setTimeout(() => resolve('silent'), this.silenceMs);
      });
      const outcome = await Promise.race([arrived, silent]);
      clearTimeout(timer);
      this.#wake = undefined;
      if (outcome === 'silent') this.close();
    }
    return this.#frames.shift();
  }

  close(): void {
    this.#closed = true;
    this.socket.terminate();
    this.#wake?.();
  }
}
