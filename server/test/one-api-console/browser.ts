import type { EnvelopeBody, JsonResponse } from '../harness';

/**
 * one-api v0.6.5's default console as a browser runs it, served from our origin: axios with JSON bodies
 * (nulls and all), the session cookie, and the browser's `Sec-Fetch-Site: same-origin`. It sends none of
 * our console's own headers.
 */
export class OneApiConsole {
  cookie = '';

  constructor(readonly baseUrl: string) {}

  async send<T = EnvelopeBody>(method: string, path: string, body?: unknown): Promise<JsonResponse<T>> {
    const headers: Record<string, string> = {
      accept: 'application/json, text/plain, */*',
      'sec-fetch-site': 'same-origin',
    };
    if (this.cookie) headers.cookie = this.cookie;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(this.baseUrl + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    for (const setCookie of response.headers.getSetCookie()) {
      const [pair = ''] = setCookie.split(';');
      const [name, value = ''] = pair.split('=');
      if (name === 'session') this.cookie = value ? `session=${value}` : '';
    }
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: JSON.parse(text) as T, text };
  }

  get = <T = EnvelopeBody>(path: string) => this.send<T>('GET', path);
  post = <T = EnvelopeBody>(path: string, body: unknown) => this.send<T>('POST', path, body);
  put = <T = EnvelopeBody>(path: string, body: unknown) => this.send<T>('PUT', path, body);
  delete = <T = EnvelopeBody>(path: string) => this.send<T>('DELETE', path);

  /** The login form: `POST /api/user/login` with what was typed. */
  async login(username: string, password: string): Promise<void> {
    const answer = await this.post('/api/user/login', { username, password });
    if (!answer.body.success) throw new Error(`login as ${username} failed: ${answer.body.message}`);
  }
}

/** What every answer of this suite must be: HTTP 200 and `success: true` (the message shown if not). */
export function accepted<T>(answer: JsonResponse<EnvelopeBody<T>>): T {
  if (answer.status !== 200 || !answer.body.success) {
    throw new Error(`HTTP ${answer.status}: ${answer.text.slice(0, 300)}`);
  }
  return answer.body.data as T;
}

/** `timestamp2string(0)` and "in an hour" of the log filters, as the console sends them (Unix seconds). */
export const logWindow = (): string =>
  `start_timestamp=${Date.parse('1970-01-01T00:00:00Z') / 1000}&end_timestamp=${Math.floor(Date.now() / 1000) + 3600}`;
