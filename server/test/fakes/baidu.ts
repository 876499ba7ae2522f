import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import { type FakeHandler, sendJson } from './http-fake';

/** An application of the fake Qianfan: its API key and secret key. */
export interface FakeBaiduClient {
  apiKey: string;
  secretKey: string;
}

export interface FakeBaiduOptions {
  clients: FakeBaiduClient[];
  reply?: string;
  usage?: { prompt_tokens: number; completion_tokens: number };
  /** Lifetime of the tokens issued from now on, in seconds (Baidu: 30 days). */
  expiresIn?: number;
  /** The token endpoint answers after this long (so concurrent callers overlap). */
  tokenDelayMs?: number;
  /** Answer every chat and embeddings call with this Baidu error (HTTP 200, as Baidu does). */
  errorCode?: number;
}

const WORKSHOP = '/rpc/2.0/ai_custom/v1/wenxinworkshop/';

/** The services the fake knows, as Baidu names them. */
const CHAT_SERVICES = new Set([
  'completions_pro',
  'completions',
  'ernie_speed',
  'ernie-speed-128k',
  'eb-instant',
  'ernie-lite-8k',
  'ernie-tiny-8k',
  'ernie-4.0-turbo-8k',
]);
const EMBEDDING_SERVICES = new Set(['embedding-v1', 'bge_large_zh', 'bge_large_en', 'tao_8k']);

const MESSAGES: Record<number, string> = {
  3: 'Unsupported openapi method',
  17: 'Open api daily request limit reached',
  18: 'Open api qps request limit reached',
  100: 'Invalid parameter',
  110: 'Access token invalid or no longer valid',
  111: 'Access token expired',
  336000: 'Internal error',
  336003: 'the role of message with even index in the messages must be user or function',
};

const failure = (res: http.ServerResponse, code: number, message?: string) =>
  sendJson(res, 200, { error_code: code, error_msg: message ?? MESSAGES[code] ?? `fake error ${code}` });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Baidu Wenxin Workshop as the adaptor meets it: the OAuth token endpoint (client_credentials; counts
 * exchanges per API key; tokens expire), and the chat and embeddings services, which check the token in
 * the query and the body as Baidu does and answer errors in the body with HTTP 200.
 */
export class FakeBaidu {
  options: FakeBaiduOptions;
  /** Issued token → [API key, expiry in ms]. */
  readonly tokens = new Map<string, { apiKey: string; expiresAt: number }>();
  readonly #exchanges = new Map<string, number>();

  constructor(options: FakeBaiduOptions) {
    this.options = options;
  }

  /** Changes some options; issued tokens stay valid. */
  configure(options: Partial<FakeBaiduOptions>): void {
    this.options = { ...this.options, ...options };
  }

  exchanges(apiKey: string): number {
    return this.#exchanges.get(apiKey) ?? 0;
  }

  /** Invalidates every token issued so far (as resetting the secret does). */
  revokeAll(): void {
    this.tokens.clear();
  }

  readonly handler: FakeHandler = async (request, res) => {
    const url = new URL(request.url, 'http://fake.invalid');
    if (request.method !== 'POST') return sendJson(res, 405, { error: 'method not allowed' });
    if (url.pathname === '/oauth/2.0/token') return this.#token(url, res);
    if (!url.pathname.startsWith(WORKSHOP)) return sendJson(res, 404, { error: 'not found' });
    const token = url.searchParams.get('access_token');
    if (!token) return failure(res, 100);
    const issued = this.tokens.get(token);
    if (!issued) return failure(res, 110);
    if (issued.expiresAt <= Date.now()) return failure(res, 111);
    if (!String(request.headers['content-type'] ?? '').startsWith('application/json')) {
      return failure(res, 336001, 'Invalid Argument');
    }
    if (!request.json) return failure(res, 336002, 'Invalid JSON');
    const [kind, service = ''] = url.pathname.slice(WORKSHOP.length).split('/');
    if (kind === 'chat' && CHAT_SERVICES.has(service)) {
      if (this.options.errorCode) return failure(res, this.options.errorCode);
      return this.#chat(request.json, res);
    }
    if (kind === 'embeddings' && EMBEDDING_SERVICES.has(service)) {
      if (this.options.errorCode) return failure(res, this.options.errorCode);
      return this.#embeddings(request.json, res);
    }
    return failure(res, 3);
  };

  async #token(url: URL, res: http.ServerResponse) {
    if (this.options.tokenDelayMs) await sleep(this.options.tokenDelayMs);
    if (url.searchParams.get('grant_type') !== 'client_credentials') {
      return sendJson(res, 400, {
        error: 'unsupported_grant_type',
        error_description: 'The authorization grant type is not supported',
      });
    }
    const apiKey = url.searchParams.get('client_id') ?? '';
    this.#exchanges.set(apiKey, this.exchanges(apiKey) + 1);
    const client = this.options.clients.find((candidate) => candidate.apiKey === apiKey);
    if (!client)
      return sendJson(res, 401, { error: 'invalid_client', error_description: 'unknown client id' });
    if (client.secretKey !== url.searchParams.get('client_secret')) {
      return sendJson(res, 401, {
        error: 'invalid_client',
        error_description: 'Client authentication failed',
      });
    }
    const expiresIn = this.options.expiresIn ?? 2_592_000;
    const token = `24.${randomBytes(16).toString('hex')}.${expiresIn}.fake`;
    this.tokens.set(token, { apiKey, expiresAt: Date.now() + expiresIn * 1000 });
    sendJson(res, 200, {
      refresh_token: `25.${randomBytes(8).toString('hex')}`,
      expires_in: expiresIn,
      session_key: 'fake-session-key',
      access_token: token,
      scope: 'public brain_all_scope',
      session_secret: 'fake-session-secret',
    });
  }

  #chat(body: Record<string, unknown>, res: http.ServerResponse) {
    const messages = body.messages;
    if (!Array.isArray(messages) || messages.length === 0 || messages.length % 2 === 0) {
      return failure(res, 336003, 'the length of messages must be an odd number');
    }
    for (const [index, message] of messages.entries()) {
      const { role, content } = (message ?? {}) as { role?: unknown; content?: unknown };
      if (typeof content !== 'string') return failure(res, 336003, 'message content must be a string');
      if (role !== (index % 2 === 0 ? 'user' : 'assistant')) return failure(res, 336003);
    }
    if (body.system !== undefined && typeof body.system !== 'string') {
      return failure(res, 336003, 'system must be a string');
    }
    const reply = this.options.reply ?? 'Hello from the fake ERNIE';
    const usage = this.options.usage ?? { prompt_tokens: 11, completion_tokens: 7 };
    const counted = (completion: number) => ({
      prompt_tokens: usage.prompt_tokens,
      completion_tokens: completion,
      total_tokens: usage.prompt_tokens + completion,
    });
    if (body.stream !== true) {
      return sendJson(res, 200, {
        id: 'as-fake-1',
        object: 'chat.completion',
        created: 1,
        result: reply,
        is_truncated: false,
        need_clear_history: false,
        finish_reason: 'normal',
        usage: counted(usage.completion_tokens),
      });
    }
    res.writeHead(200, { 'content-type': 'text/event-stream;charset=utf-8' });
    const words = reply.split(' ');
    for (const [index, word] of words.entries()) {
      const last = index === words.length - 1;
      const event = {
        id: 'as-fake-2',
        object: 'chat.completion',
        created: 1,
        sentence_id: index,
        is_end: last,
        is_truncated: false,
        result: index ? ` ${word}` : word,
        need_clear_history: false,
        finish_reason: last ? 'normal' : '',
        // Usage so far: the last event holds the whole count (a sum over events would overbill).
        usage: counted(last ? usage.completion_tokens : index + 1),
      };
      res.write(`data: ${JSON.stringify(event)}\n\n`);
    }
    res.end();
  }

  #embeddings(body: Record<string, unknown>, res: http.ServerResponse) {
    const input = body.input;
    if (!Array.isArray(input) || input.length === 0 || input.length > 16) {
      return failure(res, 336003, 'input must be a list of 1 to 16 texts');
    }
    if (input.some((text) => typeof text !== 'string')) return failure(res, 336003, 'texts must be strings');
    // Reversed: the order of `data` is not the order of the input; `index` is.
    const data = input.map((_, index) => ({ object: 'embedding', embedding: [index, 0.5], index })).reverse();
    const tokens = 3 * input.length;
    sendJson(res, 200, {
      id: 'as-fake-emb',
      object: 'embedding_list',
      created: 1,
      data,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    });
  }
}
