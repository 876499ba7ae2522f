import { generateKeyPairSync } from 'node:crypto';
import type http from 'node:http';
import { importSPKI, jwtVerify } from 'jose';
import { type FakeHandler, type RecordedRequest, sendJson } from './http-fake';
import { ranked } from './rerank';

export interface VertexServiceAccount {
  clientEmail: string;
  /** PEM (SPKI) of the account's public key: the token endpoint verifies assertions with it. */
  publicKey: string;
}

/** A service account of the test's own in `project`, with a fresh RSA key pair. */
export class TestServiceAccount implements VertexServiceAccount {
  readonly clientEmail: string;
  readonly publicKey: string;
  readonly privateKey: string;

  constructor(readonly project: string) {
    this.clientEmail = `relay@${project}.iam.gserviceaccount.com`;
    ({ publicKey: this.publicKey, privateKey: this.privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    }));
  }

  /** Its key file (the channel's vertex_ai_adc) as Google writes it, exchanging tokens at `tokenUri`. */
  adc(tokenUri: string): string {
    return JSON.stringify(
      {
        type: 'service_account',
        project_id: this.project,
        private_key_id: 'kid-1',
        private_key: this.privateKey,
        client_email: this.clientEmail,
        token_uri: tokenUri,
      },
      null,
      2,
    );
  }
}

export interface FakeVertexOptions {
  reply?: string;
  usage?: { input: number; output: number };
  /** Answer model calls with this status and Google's error body instead. */
  error?: { status: number; message: string; status_text: string };
}

const SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
const MODEL_PATH =
  /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/(google|anthropic)\/models\/([^/:]+):(\w+)(\?alt=sse)?$/;

const RANK_PATH = /^\/v1\/projects\/([^/]+)\/locations\/global\/rankingConfigs\/default_ranking_config:rank$/;
const RANKERS = [
  'semantic-ranker-default@latest',
  'semantic-ranker-default-004',
  'semantic-ranker-fast-004',
  'semantic-ranker-512@latest',
];

const googleError = (response: http.ServerResponse, code: number, message: string, status: string) =>
  sendJson(response, code, { error: { code, message, status } });

/**
 * A fake Google: the OAuth token endpoint (`/token`, JWT-bearer grant: the assertion's RS256 signature
 * checked with the service account's public key, its iss, aud and scope too) and Vertex AI's model
 * endpoints (Gemini's generateContent / streamGenerateContent?alt=sse, Claude's rawPredict /
 * streamRawPredict), which take only the tokens it issued.
 */
export class FakeVertex {
  options: FakeVertexOptions = {};
  readonly issued = new Set<string>();
  exchanges = 0;
  url = '';

  constructor(
    private readonly account: VertexServiceAccount,
    private readonly project: string,
    private readonly region: string,
  ) {}

  configure(options: FakeVertexOptions): void {
    this.options = options;
  }

  /** Model calls only (not the token endpoint). */
  modelCalls(requests: RecordedRequest[]): RecordedRequest[] {
    return requests.filter((request) => request.url.startsWith('/v1/'));
  }

  readonly handler: FakeHandler = async (request, response) => {
    if (request.url === '/token') return this.#token(request, response);
    const ranking = RANK_PATH.exec(request.url);
    if (ranking) return this.#rank(request, response, ranking[1] ?? '');
    const match = MODEL_PATH.exec(request.url);
    if (!match) return googleError(response, 404, 'Not found', 'NOT_FOUND');
    const bearer = /^Bearer (.+)$/.exec(String(request.headers.authorization ?? ''))?.[1];
    if (!bearer || !this.issued.has(bearer)) {
      return googleError(response, 401, 'Request had invalid authentication credentials.', 'UNAUTHENTICATED');
    }
    const [, project, region, publisher, model = '', action, sse] = match;
    if (project !== this.project || region !== this.region) {
      return googleError(response, 403, `Permission denied on project ${project}`, 'PERMISSION_DENIED');
    }
    const { error } = this.options;
    if (error) return googleError(response, error.status, error.message, error.status_text);
    if (publisher === 'google' && action === 'generateContent')
      return sendJson(response, 200, this.#gemini(true));
    if (publisher === 'google' && action === 'streamGenerateContent' && sse)
      return this.#geminiStream(response);
    if (publisher === 'anthropic' && (action === 'rawPredict' || action === 'streamRawPredict')) {
      const body = request.json ?? {};
      if (body.anthropic_version !== 'vertex-2023-10-16' || 'model' in body) {
        return sendJson(response, 400, {
          type: 'error',
          error: {
            type: 'invalid_request_error',
            message: 'anthropic_version: vertex-2023-10-16 required, model not allowed',
          },
        });
      }
      if (action === 'rawPredict') return sendJson(response, 200, this.#claude(model));
      return this.#claudeStream(response, model);
    }
    return googleError(response, 400, `Unsupported action ${action}`, 'INVALID_ARGUMENT');
  };

  /** Discovery Engine's ranking API: `{model, query, records:[{id, content}], topN}` → `{records:[{id, score}]}`. */
  #rank(request: RecordedRequest, response: http.ServerResponse, project: string) {
    const bearer = /^Bearer (.+)$/.exec(String(request.headers.authorization ?? ''))?.[1];
    if (!bearer || !this.issued.has(bearer)) {
      return googleError(response, 401, 'Request had invalid authentication credentials.', 'UNAUTHENTICATED');
    }
    if (project !== this.project) {
      return googleError(response, 403, `Permission denied on project ${project}`, 'PERMISSION_DENIED');
    }
    const { error } = this.options;
    if (error) return googleError(response, error.status, error.message, error.status_text);
    const body = request.json ?? {};
    const records = body.records as Array<{ id?: unknown; content?: unknown }> | undefined;
    const invalid = (message: string) => googleError(response, 400, message, 'INVALID_ARGUMENT');
    if (!RANKERS.includes(String(body.model))) return invalid(`Unknown model ${String(body.model)}`);
    if (typeof body.query !== 'string') return invalid('query is required');
    if (!Array.isArray(records) || records.length === 0 || records.length > 200)
      return invalid('between 1 and 200 records are required');
    if (!records.every((record) => typeof record.id === 'string' && typeof record.content === 'string'))
      return invalid('each record needs an id and a content');
    const top = typeof body.topN === 'number' ? body.topN : undefined;
    const scored = ranked(
      body.query,
      records.map((record) => record.content as string),
      top,
    );
    sendJson(response, 200, {
      records: scored.map(({ index, relevance_score }) => ({
        id: records[index]?.id,
        score: relevance_score,
        ...(body.ignoreRecordDetailsInResponse === true ? {} : { content: records[index]?.content }),
      })),
    });
  }

  async #token(request: RecordedRequest, response: http.ServerResponse): Promise<void> {
    const form = new URLSearchParams(request.body);
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') {
      return sendJson(response, 400, { error: 'unsupported_grant_type' });
    }
    try {
      const key = await importSPKI(this.account.publicKey, 'RS256');
      const { payload } = await jwtVerify(form.get('assertion') ?? '', key, {
        issuer: this.account.clientEmail,
        audience: `${this.url}/token`,
        algorithms: ['RS256'],
      });
      if (payload.scope !== SCOPE) throw new Error('scope');
    } catch {
      return sendJson(response, 400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
    }
    this.exchanges += 1;
    const token = `ya29.fake-${this.exchanges}-${Math.random().toString(36).slice(2)}`;
    this.issued.add(token);
    sendJson(response, 200, { access_token: token, expires_in: 3599, token_type: 'Bearer' });
  }

  #reply = () => this.options.reply ?? 'Hello from Vertex';
  #usage = () => this.options.usage ?? { input: 9, output: 5 };

  #gemini(last: boolean, text = this.#reply()) {
    const usage = this.#usage();
    return {
      candidates: [
        {
          content: { role: 'model', parts: [{ text }] },
          ...(last ? { finishReason: 'STOP' } : {}),
          index: 0,
        },
      ],
      usageMetadata: {
        promptTokenCount: usage.input,
        candidatesTokenCount: last ? usage.output : 1,
        totalTokenCount: usage.input + (last ? usage.output : 1),
      },
      modelVersion: 'gemini-1.5-pro-002',
    };
  }

  #geminiStream(response: http.ServerResponse): void {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    const pieces = this.#reply().split(/(?= )/);
    for (const [index, piece] of pieces.entries()) {
      response.write(`data: ${JSON.stringify(this.#gemini(index === pieces.length - 1, piece))}\r\n\r\n`);
    }
    response.end();
  }

  #claude(model: string) {
    const usage = this.#usage();
    return {
      id: 'msg_vrtx_01Fake',
      type: 'message',
      role: 'assistant',
      model,
      content: [{ type: 'text', text: this.#reply() }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: usage.input, output_tokens: usage.output },
    };
  }

  #claudeStream(response: http.ServerResponse, model: string): void {
    response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
    const usage = this.#usage();
    const send = (event: Record<string, unknown> & { type: string }) =>
      response.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
    send({
      type: 'message_start',
      message: {
        ...this.#claude(model),
        content: [],
        stop_reason: null,
        usage: { input_tokens: usage.input, output_tokens: 1 },
      },
    });
    send({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
    for (const piece of this.#reply().split(/(?= )/)) {
      send({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: piece } });
    }
    send({ type: 'content_block_stop', index: 0 });
    send({
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: usage.output },
    });
    send({ type: 'message_stop' });
    response.end();
  }
}
