import http from 'node:http';

export interface UploadAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  json: Record<string, unknown> | undefined;
  /** How many body bytes the client had sent when the answer's head arrived. */
  sentWhenAnswered: number;
}

/**
 * A request whose body the test sends piece by piece (Content-Length when `length` is given, chunked
 * otherwise), so that it can hold a body half sent, abort it, or watch the server answer before the end.
 */
export class Upload {
  readonly answer: Promise<UploadAnswer>;
  #request: http.ClientRequest;
  #sent = 0;
  #answered = false;

  constructor(url: string, headers: Record<string, string>, length?: number, method = 'POST') {
    this.#request = http.request(url, {
      method,
      // A connection of its own, kept alive as browsers and SDKs do (`agent: false` would ask the
      // server to close it after answering, which cuts a client still sending).
      agent: new http.Agent({ keepAlive: true, maxSockets: 1 }),
      headers: { ...headers, ...(length === undefined ? {} : { 'content-length': String(length) }) },
    });
    this.answer = new Promise((resolve, reject) => {
      this.#request.once('response', (response) => {
        this.#answered = true;
        const sentWhenAnswered = this.#sent;
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.once('error', reject);
        response.once('end', () => {
          const body = Buffer.concat(chunks).toString();
          let json: Record<string, unknown> | undefined;
          try {
            json = JSON.parse(body) as Record<string, unknown>;
          } catch {
            json = undefined;
          }
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body,
            json,
            sentWhenAnswered,
          });
        });
      });
      this.#request.once('error', (error) => {
        if (!this.#answered) reject(error);
      });
    });
    // A refused upload's answer may be followed by a reset: the answer is what counts.
    this.answer.catch(() => undefined);
  }

  get answered(): boolean {
    return this.#answered;
  }

  /** Sends the request's head now, before any of its body (node:http would hold it for the first write). */
  sendHead(): void {
    this.#request.flushHeaders();
  }

  /** Sends `bytes` (waiting for the socket to take them); stops early once the server has answered. */
  async write(bytes: Buffer, pieceSize = 256 * 1024): Promise<void> {
    for (let offset = 0; offset < bytes.length && !this.#answered; offset += pieceSize) {
      const piece = bytes.subarray(offset, offset + pieceSize);
      if (this.#request.destroyed) return;
      const drained = this.#request.write(piece);
      this.#sent += piece.length;
      if (!drained) {
        await new Promise<void>((resolve) => {
          const done = () => {
            this.#request.off('drain', done);
            this.#request.off('close', done);
            clearInterval(watch);
            resolve();
          };
          const watch = setInterval(() => this.#answered && done(), 20);
          this.#request.once('drain', done);
          this.#request.once('close', done);
        });
      }
    }
  }

  end(): void {
    if (!this.#request.destroyed) this.#request.end();
  }

  /** The client goes away mid-upload: the connection is destroyed. */
  abort(): void {
    this.#request.destroy();
  }
}

/** Sends the whole body (stopping as soon as the server answers) and reads the answer. */
export async function upload(
  url: string,
  headers: Record<string, string>,
  body: Buffer,
  { chunked = false } = {},
): Promise<UploadAnswer> {
  const call = new Upload(url, headers, chunked ? undefined : body.length);
  await call.write(body);
  if (!call.answered) call.end();
  const answer = await call.answer;
  call.abort();
  return answer;
}

/** A multipart form with a `model` field and a `file` of `size` bytes, as the audio endpoints take. */
export function audioForm(size: number, model = 'whisper-1'): { body: Buffer; contentType: string } {
  const boundary = 'switchyard-test-boundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="model"\r\n\r\n${model}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="clip.wav"\r\n` +
      'Content-Type: audio/wav\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const file = Buffer.alloc(size, 0x61);
  return {
    body: Buffer.concat([head, file, tail]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** An image edit as the SDK sends it: `model` and `prompt` fields, then an `image` file of `size` bytes. */
export function imageEditForm(size: number): { body: Buffer; contentType: string } {
  const boundary = 'switchyard-edit-boundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="model"\r\n\r\ndall-e-2\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="prompt"\r\n\r\nA red door\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="door.png"\r\n` +
      'Content-Type: image/png\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    body: Buffer.concat([head, Buffer.alloc(size, 0x89), tail]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}
