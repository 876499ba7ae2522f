import type http from 'node:http';
import { type FakeHandler, HttpFake, type RecordedRequest, sendJson } from './http-fake';

export interface FakeReplicateOptions {
  token: string;
  /** A language model's pieces (streamed as `output` events, or the finished prediction's output). */
  pieces?: string[];
  /** Polls answered `processing` before the prediction succeeds (0: the create call answers it done). */
  pollsBeforeDone?: number;
  /** The prediction fails with this error. */
  fails?: string;
  /** Where the pictures are said to be (default: this fake's own /files/). */
  filesAt?: string;
  /** Token counts in the finished prediction's metrics. */
  metrics?: { input_token_count: number; output_token_count: number };
}

/** A 1×1 PNG. */
export const PNG_BYTES = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Replicate's prediction flow: POST /v1/models/{owner}/{name}/predictions answers 201 with the
 * prediction and its URLs; GET /v1/predictions/{id} polls it; GET /v1/streams/{id} streams it
 * (event: output / done); GET /files/{id}.png is a picture (no key needed).
 */
export class FakeReplicate extends HttpFake {
  #options: FakeReplicateOptions;
  #predictions = new Map<string, { model: string; polls: number; input: Record<string, unknown> }>();

  constructor(options: FakeReplicateOptions) {
    super(() => undefined);
    this.#options = options;
    this.use(this.#handler());
  }

  configure(options: FakeReplicateOptions): void {
    this.#options = options;
    this.use(this.#handler());
  }

  #prediction(id: string) {
    const entry = this.#predictions.get(id);
    const options = this.#options;
    const done = entry !== undefined && entry.polls >= (options.pollsBeforeDone ?? 0);
    const image = entry ? !entry.model.startsWith('meta/') && !entry.model.startsWith('mistralai/') : false;
    const status = !done ? 'processing' : options.fails ? 'failed' : 'succeeded';
    return {
      id,
      model: entry?.model,
      input: entry?.input,
      status,
      output:
        status !== 'succeeded'
          ? null
          : image
            ? [`${options.filesAt ?? this.url}/files/${id}.png`]
            : (options.pieces ?? ['Hi']),
      error: status === 'failed' ? options.fails : null,
      urls: {
        get: `${this.url}/v1/predictions/${id}`,
        cancel: `${this.url}/v1/predictions/${id}/cancel`,
        stream: `${this.url}/v1/streams/${id}`,
      },
      ...(status === 'succeeded' && options.metrics ? { metrics: options.metrics } : {}),
    };
  }

  #handler(): FakeHandler {
    return async (request: RecordedRequest, res: http.ServerResponse) => {
      const path = request.url;
      if (path.startsWith('/files/')) {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end(PNG_BYTES);
        return;
      }
      if (request.headers.authorization !== `Bearer ${this.#options.token}`) {
        return sendJson(res, 401, {
          title: 'Unauthenticated',
          detail: 'You did not pass a valid authentication token',
          status: 401,
        });
      }
      const create = /^\/v1\/models\/([^/]+\/[^/]+)\/predictions$/.exec(path);
      if (create && request.method === 'POST') {
        const model = create[1] as string;
        if (model.endsWith('/missing')) {
          return sendJson(res, 404, {
            title: 'Not found',
            detail: 'The requested resource could not be found.',
            status: 404,
          });
        }
        const id = `pred${this.#predictions.size + 1}`;
        const input = (request.json?.input ?? {}) as Record<string, unknown>;
        this.#predictions.set(id, { model, polls: 0, input });
        // Prefer: wait holds the answer until the prediction is done (when it is done at once here).
        return sendJson(res, 201, this.#prediction(id));
      }
      const poll = /^\/v1\/predictions\/([^/]+)$/.exec(path);
      if (poll && request.method === 'GET') {
        const entry = this.#predictions.get(poll[1] as string);
        if (!entry) return sendJson(res, 404, { detail: 'Not found.' });
        entry.polls += 1;
        return sendJson(res, 200, this.#prediction(poll[1] as string));
      }
      const stream = /^\/v1\/streams\/([^/]+)$/.exec(path);
      if (stream && request.method === 'GET' && request.headers.accept === 'text/event-stream') {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
        if (this.#options.fails) {
          res.end(`event: error\ndata: ${this.#options.fails}\n\nevent: done\ndata: {"reason":"error"}\n\n`);
          return;
        }
        for (const [index, piece] of (this.#options.pieces ?? ['Hi']).entries()) {
          // A piece with a line break comes as several data lines, as SSE requires.
          const data = piece
            .split('\n')
            .map((line) => `data: ${line}`)
            .join('\n');
          res.write(`event: output\nid: ${index}\n${data}\n\n`);
          await sleep(2);
        }
        res.end('event: done\ndata: {}\n\n');
        return;
      }
      sendJson(res, 404, { detail: `Unknown path ${path}` });
    };
  }
}
