import type http from 'node:http';
import { HttpFake, type RecordedRequest, sendJson } from './http-fake';

/** One upstream job as the fake keeps it: a Sora video or a Veo operation. */
export interface FakeVideoJob {
  id: string;
  model: string;
  status: 'queued' | 'in_progress' | 'completed' | 'failed';
  progress: number;
  seconds: string;
  size: string;
  error?: string;
}

/** The bytes of a fake video: `size` bytes of a pattern a test can check. */
export function videoBytes(size: number): Buffer {
  const bytes = Buffer.alloc(size);
  for (let index = 0; index < size; index++) bytes[index] = index % 251;
  return bytes;
}

const CHUNK = 64 * 1024;

/**
 * A real HTTP server speaking OpenAI's videos API (POST /v1/videos, GET /v1/videos/{id},
 * GET /v1/videos/{id}/content) and Google's Veo (POST models/{model}:predictLongRunning, GET of the
 * operation, GET of the file URI with the key). Jobs move only when the test says so.
 */
export class VideoFake {
  readonly http: HttpFake;
  readonly jobs = new Map<string, FakeVideoJob>();
  /** The key each request must carry (Bearer for OpenAI, x-goog-api-key for Google). */
  readonly key: string;
  /** The bytes every download answers. */
  content = videoBytes(256 * 1024);
  /** Set to hold a download after its first chunk until the promise settles (streaming tests). */
  holdAfterFirstChunk: Promise<void> | undefined;
  /** Set to answer every look at a job with bytes that are not JSON. */
  garbled = false;
  /** Set to refuse every new job with this message (400, OpenAI's error shape). */
  refuseCreate: string | undefined;
  #next = 0;

  constructor(key: string) {
    this.key = key;
    this.http = new HttpFake((request, response) => this.#handle(request, response));
  }

  async start(): Promise<this> {
    await this.http.start();
    return this;
  }

  get url(): string {
    return this.http.url;
  }

  close(): Promise<void> {
    return this.http.close();
  }

  /** The one job the fake holds (most tests make one). */
  only(): FakeVideoJob {
    const [job, ...more] = [...this.jobs.values()];
    if (!job || more.length > 0) throw new Error(`the fake holds ${this.jobs.size} jobs`);
    return job;
  }

  set(id: string, changes: Partial<FakeVideoJob>): void {
    const job = this.jobs.get(id);
    if (!job) throw new Error(`no fake job ${id}`);
    Object.assign(job, changes);
  }

  /** Calls the fake received on `path` (a prefix), by method. */
  calls(method: string, path: string): RecordedRequest[] {
    return this.http.requests.filter((request) => request.method === method && request.url.startsWith(path));
  }

  async #handle(request: RecordedRequest, response: http.ServerResponse): Promise<void> {
    const url = new URL(request.url, 'http://fake');
    const path = url.pathname;
    if (path.startsWith('/v1/videos')) {
      if (request.headers.authorization !== `Bearer ${this.key}`) {
        sendJson(response, 401, {
          error: { message: 'Incorrect API key provided', type: 'invalid_request_error' },
        });
        return;
      }
      await this.#openAi(request, path, url, response);
      return;
    }
    if (request.headers['x-goog-api-key'] !== this.key) {
      sendJson(response, 400, {
        error: { code: 400, message: 'API key not valid.', status: 'INVALID_ARGUMENT' },
      });
      return;
    }
    await this.#google(request, path, response);
  }

  async #openAi(
    request: RecordedRequest,
    path: string,
    url: URL,
    response: http.ServerResponse,
  ): Promise<void> {
    if (request.method === 'POST' && path === '/v1/videos') {
      if (this.refuseCreate) {
        sendJson(response, 400, { error: { message: this.refuseCreate, type: 'invalid_request_error' } });
        return;
      }
      const fields = request.json ?? formFields(request);
      const id = `video_upstream_${++this.#next}`;
      const job: FakeVideoJob = {
        id,
        model: String(fields.model ?? 'sora-2'),
        status: 'queued',
        progress: 0,
        seconds: String(fields.seconds ?? '4'),
        size: String(fields.size ?? '720x1280'),
      };
      this.jobs.set(id, job);
      sendJson(response, 200, soraObject(job));
      return;
    }
    const match = /^\/v1\/videos\/([^/]+)(\/content)?$/.exec(path);
    const job = match && this.jobs.get(decodeURIComponent(match[1] ?? ''));
    if (!job) {
      sendJson(response, 404, {
        error: { message: 'Video not found', type: 'invalid_request_error', code: 'not_found' },
      });
      return;
    }
    if (!match[2]) {
      if (this.garbled) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('<html>proxy error</html>');
        return;
      }
      sendJson(response, 200, soraObject(job));
      return;
    }
    if (job.status !== 'completed') {
      sendJson(response, 400, { error: { message: 'Video is not ready', type: 'invalid_request_error' } });
      return;
    }
    const variant = url.searchParams.get('variant') ?? 'video';
    await this.#download(response, variant === 'video' ? 'video/mp4' : 'image/webp');
  }

  async #google(request: RecordedRequest, path: string, response: http.ServerResponse): Promise<void> {
    const create = /^\/v1beta\/models\/([^/:]+):predictLongRunning$/.exec(path);
    if (request.method === 'POST' && create) {
      const model = create[1] ?? '';
      const parameters = (request.json?.parameters ?? {}) as Record<string, unknown>;
      const id = `models/${model}/operations/op${++this.#next}`;
      this.jobs.set(id, {
        id,
        model,
        status: 'in_progress',
        progress: 0,
        seconds: String(parameters.durationSeconds ?? 8),
        size: String(parameters.aspectRatio ?? '16:9'),
      });
      sendJson(response, 200, { name: id });
      return;
    }
    const file = /^\/v1beta\/files\/([^/:]+):download$/.exec(path);
    if (request.method === 'GET' && file) {
      await this.#download(response, 'video/mp4');
      return;
    }
    const operation = this.jobs.get(path.replace(/^\/v1beta\//, ''));
    if (!operation) {
      sendJson(response, 404, { error: { code: 404, message: 'Operation not found', status: 'NOT_FOUND' } });
      return;
    }
    sendJson(response, 200, this.#operation(operation));
  }

  #operation(job: FakeVideoJob): Record<string, unknown> {
    if (job.status === 'failed') {
      return { name: job.id, done: true, error: { code: 3, message: job.error ?? 'failed' } };
    }
    if (job.status !== 'completed') return { name: job.id, done: false };
    const file = job.id.split('/').pop();
    return {
      name: job.id,
      done: true,
      response: {
        '@type': 'type.googleapis.com/google.ai.generativelanguage.v1beta.PredictLongRunningResponse',
        generateVideoResponse: {
          generatedSamples: [
            {
              video: {
                uri: `https://generativelanguage.googleapis.com/v1beta/files/${file}:download?alt=media`,
              },
            },
          ],
        },
      },
    };
  }

  async #download(response: http.ServerResponse, contentType: string): Promise<void> {
    response.writeHead(200, { 'content-type': contentType });
    const bytes = this.content;
    for (let offset = 0; offset < bytes.length; offset += CHUNK) {
      response.write(bytes.subarray(offset, offset + CHUNK));
      if (offset === 0 && this.holdAfterFirstChunk) await this.holdAfterFirstChunk;
    }
    response.end();
  }
}

function soraObject(job: FakeVideoJob): Record<string, unknown> {
  return {
    id: job.id,
    object: 'video',
    created_at: 1_760_000_000,
    status: job.status,
    model: job.model,
    progress: job.progress,
    seconds: job.seconds,
    size: job.size,
    quality: 'standard',
    completed_at: job.status === 'completed' ? 1_760_000_100 : null,
    expires_at: null,
    remixed_from_video_id: null,
    error:
      job.status === 'failed' ? { code: 'video_generation_failed', message: job.error ?? 'failed' } : null,
  };
}

/** The text fields of a multipart body as the fake received it (enough for model, seconds and size). */
function formFields(request: RecordedRequest): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const match of request.body.matchAll(/name="([^"]+)"\r\n\r\n([^\r]*)\r\n/g)) {
    fields[match[1] ?? ''] = match[2];
  }
  return fields;
}
