import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';

/** The tokens of one response, as the test wants the provider to report them. */
export interface RealtimeTokens {
  inputText: number;
  inputAudio: number;
  cachedText?: number;
  cachedAudio?: number;
  outputText: number;
  outputAudio: number;
}

/** How the fake answers one response.create. */
export interface RealtimeResponseScript {
  text?: string;
  /** Base64 audio chunks sent as audio deltas. */
  audio?: string[];
  tokens: RealtimeTokens;
  /** Start the response and wait: a response.cancel ends it, reporting `cancelledTokens`. */
  holdOpen?: { cancelledTokens: RealtimeTokens };
  /** Start the response, send its deltas, then drop the connection without a close frame. */
  dropConnection?: boolean;
}

/** One session the fake accepted: where it was opened and with which headers. */
export interface RealtimeSessionRecord {
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  /** The client's events, parsed, in order. */
  events: Array<Record<string, unknown>>;
  closed: boolean;
  /** Bytes the fake sent that the gateway has not taken yet (ws's bufferedAmount). */
  unsent: () => number;
}

/** OpenAI's usage object of a response.done event. */
export function usageObject(tokens: RealtimeTokens) {
  const cachedText = tokens.cachedText ?? 0;
  const cachedAudio = tokens.cachedAudio ?? 0;
  const input = tokens.inputText + tokens.inputAudio;
  const output = tokens.outputText + tokens.outputAudio;
  return {
    total_tokens: input + output,
    input_tokens: input,
    output_tokens: output,
    input_token_details: {
      cached_tokens: cachedText + cachedAudio,
      text_tokens: tokens.inputText,
      audio_tokens: tokens.inputAudio,
      cached_tokens_details: { text_tokens: cachedText, audio_tokens: cachedAudio },
    },
    output_token_details: { text_tokens: tokens.outputText, audio_tokens: tokens.outputAudio },
  };
}

const unauthorized = {
  error: {
    message: 'Incorrect API key provided.',
    type: 'invalid_request_error',
    param: null,
    code: 'invalid_api_key',
  },
};

/**
 * A real WebSocket server speaking OpenAI's Realtime event protocol (GA event names; the beta's
 * when the session was opened with `OpenAI-Beta: realtime=v1`), at OpenAI's path
 * (`/v1/realtime?model=…`, bearer key) and Azure's (`/openai/realtime?api-version=…&deployment=…`,
 * `api-key`). It also mints ephemeral keys at `/v1/realtime/sessions` and `/client_secrets`.
 */
export class RealtimeFake {
  readonly sessions: RealtimeSessionRecord[] = [];
  /** Bodies of the ephemeral-key mints it received. */
  readonly mints: Array<{ path: string; body: Record<string, unknown>; headers: http.IncomingHttpHeaders }> =
    [];
  /** What each session's response.create get, in order; the last one repeats. */
  responses: RealtimeResponseScript[] = [];
  url = '';
  #eventCount = 0;
  #closeWaiters: Array<() => void> = [];
  readonly #http = http.createServer((req, res) => this.#mint(req, res));
  readonly #wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });

  constructor(private readonly key: string) {
    this.#http.on('upgrade', (req, socket, head) => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const azure = url.pathname === '/openai/realtime';
      const presented = azure ? req.headers['api-key'] : req.headers.authorization?.replace(/^Bearer /, '');
      const known = url.pathname === '/v1/realtime' || azure;
      const complete = azure
        ? url.searchParams.has('api-version') && url.searchParams.has('deployment')
        : url.searchParams.has('model');
      if (!known || !complete || presented !== this.key) {
        const status = known && complete ? 401 : 404;
        socket.end(
          `HTTP/1.1 ${status} Refused\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n${JSON.stringify(unauthorized)}`,
        );
        return;
      }
      this.#wss.handleUpgrade(req, socket, head, (ws) => this.#session(ws, req, url));
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#http.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#http.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    for (const client of this.#wss.clients) client.terminate();
    this.#wss.close();
    this.#http.closeAllConnections();
    await new Promise<void>((resolve) => this.#http.close(() => resolve()));
  }

  /** Sessions whose socket is still open. */
  get openSessions(): number {
    return this.sessions.filter((session) => !session.closed).length;
  }

  /** Resolves once no session is open. */
  allClosed(): Promise<void> {
    if (this.openSessions === 0) return Promise.resolve();
    return new Promise((resolve) => this.#closeWaiters.push(resolve));
  }

  #eventId(): string {
    this.#eventCount += 1;
    return `event_${this.#eventCount}`;
  }

  #session(ws: WebSocket, req: http.IncomingMessage, url: URL): void {
    const record: RealtimeSessionRecord = {
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      events: [],
      closed: false,
      unsent: () => ws.bufferedAmount,
    };
    this.sessions.push(record);
    const beta = req.headers['openai-beta'] === 'realtime=v1';
    const model = url.searchParams.get('model') ?? url.searchParams.get('deployment') ?? '';
    let session: Record<string, unknown> = {
      id: `sess_${this.sessions.length}`,
      object: 'realtime.session',
      model,
    };
    const send = (event: Record<string, unknown>) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ event_id: this.#eventId(), ...event }));
    };
    /** The response in progress that waits for a cancel. */
    let held: { response: Record<string, unknown>; tokens: RealtimeTokens } | undefined;
    /** Responses this session asked for: the n-th answers the n-th script (the last one repeats). */
    let asked = 0;
    const sessionNo = this.sessions.length;
    const done = (response: Record<string, unknown>, status: string, tokens: RealtimeTokens) =>
      send({ type: 'response.done', response: { ...response, status, usage: usageObject(tokens) } });

    send({ type: 'session.created', session });
    ws.on('message', (data: RawData) => {
      let event: Record<string, unknown>;
      try {
        event = JSON.parse(data.toString()) as Record<string, unknown>;
      } catch {
        send({
          type: 'error',
          error: {
            type: 'invalid_request_error',
            code: 'invalid_json',
            message: 'Invalid JSON',
            param: null,
          },
        });
        return;
      }
      record.events.push(event);
      switch (event.type) {
        case 'session.update':
          session = { ...session, ...(event.session as Record<string, unknown>) };
          send({ type: 'session.updated', session });
          return;
        case 'conversation.item.create':
          send({ type: 'conversation.item.created', previous_item_id: null, item: event.item });
          return;
        case 'input_audio_buffer.append':
          return;
        case 'response.create': {
          asked += 1;
          const response = (event.response ?? {}) as Record<string, unknown>;
          const limit = Math.min(
            outputLimit(session.max_output_tokens ?? session.max_response_output_tokens),
            outputLimit(response.max_output_tokens),
          );
          const answer = this.#respond(send, done, beta, `resp_${sessionNo}_${asked}`, asked, limit);
          if (answer === 'drop') ws.terminate();
          else held = answer;
          return;
        }
        case 'response.cancel':
          if (held) {
            done(held.response, 'cancelled', held.tokens);
            held = undefined;
          }
          return;
        default:
          send({
            type: 'error',
            error: {
              type: 'invalid_request_error',
              code: 'invalid_value',
              message: `Invalid value: '${String(event.type)}'.`,
              param: 'type',
              event_id: event.event_id ?? null,
            },
          });
      }
    });
    ws.on('close', () => {
      record.closed = true;
      if (this.openSessions === 0) for (const wake of this.#closeWaiters.splice(0)) wake();
    });
  }

  /** Answers one response.create; answers what waits for a cancel, or 'drop' to cut the connection. */
  #respond(
    send: (event: Record<string, unknown>) => void,
    done: (response: Record<string, unknown>, status: string, tokens: RealtimeTokens) => void,
    beta: boolean,
    id: string,
    nth: number,
    limit: number,
  ): { response: Record<string, unknown>; tokens: RealtimeTokens } | 'drop' | undefined {
    const script = this.responses[Math.min(nth, this.responses.length) - 1];
    if (!script) throw new Error('the fake has no response scripted');
    const response = { id, object: 'realtime.response' };
    send({ type: 'response.created', response: { ...response, status: 'in_progress' } });
    if (script.text) {
      send({
        type: beta ? 'response.text.delta' : 'response.output_text.delta',
        response_id: response.id,
        delta: script.text,
      });
    }
    for (const chunk of script.audio ?? []) {
      send({
        type: beta ? 'response.audio.delta' : 'response.output_audio.delta',
        response_id: response.id,
        delta: chunk,
      });
    }
    if (script.dropConnection) return 'drop';
    if (script.holdOpen) return { response, tokens: script.holdOpen.cancelledTokens };
    // As OpenAI does: a response that reaches its output limit stops there, 'incomplete'.
    const { outputText, outputAudio } = script.tokens;
    if (outputText + outputAudio <= limit) done(response, 'completed', script.tokens);
    else {
      const text = Math.min(outputText, limit);
      done(response, 'incomplete', { ...script.tokens, outputText: text, outputAudio: limit - text });
    }
    return undefined;
  }

  #mint(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0] ?? '';
      const presented = req.headers['api-key'] ?? req.headers.authorization?.replace(/^Bearer /, '');
      if (presented !== this.key) {
        res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify(unauthorized));
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString() || '{}') as Record<string, unknown>;
      this.mints.push({ path, body, headers: req.headers });
      const secret = { value: 'ek_fake_ephemeral', expires_at: 1_900_000_000 };
      const answer = path.endsWith('/client_secrets')
        ? { ...secret, session: body.session }
        : { id: 'sess_minted', object: 'realtime.session', model: body.model, client_secret: secret };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  }
}

/** A session's or response's output limit: a number, else none ('inf', or not set). */
const outputLimit = (value: unknown): number =>
  typeof value === 'number' ? value : Number.POSITIVE_INFINITY;
