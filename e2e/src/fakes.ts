import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import type { BrowserContext } from 'playwright-core';
import { SMTPServer } from 'smtp-server';

export interface FakeServer {
  url: string;
  /** Request paths received, in order. */
  requests: string[];
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;

/** A real HTTP server on 127.0.0.1 and a free port, answering with `handler`. */
export async function startFake(handler: Handler): Promise<FakeServer> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => {
      requests.push(req.url ?? '');
      handler(req, body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** An OpenAI-compatible upstream: every chat completion answers with the given token usage. */
export function startFakeOpenAi(usage = { prompt_tokens: 120, completion_tokens: 80 }): Promise<FakeServer> {
  return startFake((req, body, res) => {
    if (!(req.url ?? '').endsWith('/chat/completions')) {
      sendJson(res, 404, { error: { message: 'not found', type: 'invalid_request_error' } });
      return;
    }
    const model = String((JSON.parse(body || '{}') as { model?: string }).model ?? 'gpt-3.5-turbo');
    sendJson(res, 200, {
      id: 'chatcmpl-e2e',
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hello!' }, finish_reason: 'stop' }],
      usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
    });
  });
}

/** A "latest release" endpoint (GitHub's shape) the console may call from another origin. */
export function startFakeReleases(answer: () => { status: number; body: unknown }): Promise<FakeServer> {
  return startFake((req, _body, res) => {
    const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*' };
    if (req.method === 'OPTIONS') {
      res.writeHead(204, cors);
      res.end();
      return;
    }
    const { status, body } = answer();
    sendJson(res, status, body, cors);
  });
}

/** One message the fake SMTP server was given. */
export interface CapturedMail {
  from: string;
  to: string[];
  subject: string;
  /** The decoded text of the body parts (quoted-printable and base64 undone), joined. */
  body: string;
  raw: string;
}

export interface FakeMailServer {
  port: number;
  /** Every message received, oldest first. */
  mails: CapturedMail[];
  /** Waits for the mail to `address` after the first `seen` ones (count them before the action that mails). */
  next(address: string, seen?: number): Promise<CapturedMail>;
  close(): Promise<void>;
}

function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-Fa-f]{2})/g, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** RFC 2047 words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`) in a header value. */
function decodeHeader(value: string): string {
  return value.replace(/=\?[^?]+\?([QqBb])\?([^?]*)\?=\s*/g, (_match, kind: string, text: string) =>
    kind.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : decodeQuotedPrintable(text.replace(/_/g, ' ')),
  );
}

function splitHeaders(part: string): { headers: Map<string, string>; body: string } {
  const [head = '', ...rest] = part.split(/\r?\n\r?\n/);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body: rest.join('\n\n') };
}

/** The text of a message part: each leaf decoded, multipart children joined. */
function bodyText(part: string): string {
  const { headers, body } = splitHeaders(part);
  const boundary = /boundary="?([^";]+)"?/i.exec(headers.get('content-type') ?? '')?.[1];
  if (boundary) {
    return body
      .split(`--${boundary}`)
      .slice(1)
      .filter((child) => !child.startsWith('--'))
      .map((child) => bodyText(child.replace(/^\r?\n/, '')))
      .join('\n');
  }
  const encoding = (headers.get('content-transfer-encoding') ?? '').toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body);
  return body;
}

/**
 * A real SMTP server (the `smtp-server` package) on 127.0.0.1 and a free port, without TLS or
 * login, that keeps every message the gateway sends.
 */
export async function startFakeSmtp(): Promise<FakeMailServer> {
  const mails: CapturedMail[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          subject: decodeHeader(splitHeaders(raw).headers.get('subject') ?? ''),
          body: bodyText(raw),
          raw,
        });
        callback();
      });
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    mails,
    async next(address, seen = 0) {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const mail = mails.filter((candidate) => candidate.to.includes(address))[seen];
        if (mail) return mail;
        if (Date.now() > deadline) throw new Error(`no mail to ${address} arrived within 10 s`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The account GitHub says signed in. */
export interface GitHubAccount {
  login: string;
  name?: string;
  email?: string;
}

export interface FakeGitHub extends FakeServer {
  /** Where the authorise page sends the browser back (the OAuth app's callback URL). */
  callbackUrl: string;
  /** Who signs in at the authorise page. */
  account: GitHubAccount;
  /** Codes traded for a token, in order. */
  exchanged: string[];
}

/**
 * GitHub's OAuth app over real HTTP: the authorise page (which signs `account` in at once and
 * sends the browser to `callbackUrl` with a code and the state), the token endpoint that trades
 * a code once, and GET /user for the token. The gateway reaches it through GITHUB_OAUTH_URL and
 * GITHUB_API_URL; the browser through `routeGitHubAuthorize`.
 */
export async function startFakeGitHub(app: {
  clientId: string;
  clientSecret: string;
  account: GitHubAccount;
}): Promise<FakeGitHub> {
  const codes = new Map<string, GitHubAccount>();
  const tokens = new Map<string, GitHubAccount>();
  let issued = 0;
  const state = { callbackUrl: '', account: app.account, exchanged: [] as string[] };
  const fake = await startFake((req, body, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (req.method === 'GET' && url.pathname === '/login/oauth/authorize') {
      if (url.searchParams.get('client_id') !== app.clientId) {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('unknown OAuth app');
        return;
      }
      const code = `gh-code-${++issued}`;
      codes.set(code, state.account);
      const back = new URL(state.callbackUrl);
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      res.writeHead(302, { location: back.toString() });
      res.end();
      return;
    }
    if (req.method === 'POST' && url.pathname === '/login/oauth/access_token') {
      const asked = JSON.parse(body || '{}') as Record<string, string>;
      const account = codes.get(asked.code ?? '');
      if (asked.client_id !== app.clientId || asked.client_secret !== app.clientSecret) {
        sendJson(res, 200, { error: 'incorrect_client_credentials' });
      } else if (!account) {
        sendJson(res, 200, { error: 'bad_verification_code' });
      } else {
        codes.delete(asked.code ?? '');
        state.exchanged.push(asked.code ?? '');
        const token = `gho_${issued}_${Math.random().toString(36).slice(2)}`;
        tokens.set(token, account);
        sendJson(res, 200, { access_token: token, token_type: 'bearer', scope: 'user:email' });
      }
      return;
    }
    if (req.method === 'GET' && url.pathname === '/user') {
      const account = tokens.get((req.headers.authorization ?? '').replace(/^Bearer /, ''));
      if (!account) sendJson(res, 401, { message: 'Bad credentials' });
      else
        sendJson(res, 200, {
          login: account.login,
          id: 1,
          name: account.name ?? null,
          email: account.email ?? null,
        });
      return;
    }
    sendJson(res, 404, { message: 'Not Found' });
  });
  return Object.assign(state, fake);
}

/** Sends the browser's visits to github.com's authorise page to the fake's, query and all. */
export async function routeGitHubAuthorize(context: BrowserContext, github: FakeServer): Promise<void> {
  await context.route('https://github.com/login/oauth/authorize**', async (route) => {
    const { search } = new URL(route.request().url());
    await route.fulfill({
      status: 302,
      headers: { location: `${github.url}/login/oauth/authorize${search}` },
    });
  });
}

export interface FakeOidc extends FakeServer {
  /** The subject and claims of whoever signs in at the authorise page next. */
  account: { sub: string; name: string; email: string };
}

/**
 * An OpenID Connect provider: discovery, JWKS, an authorise page that sends the browser straight back
 * with a code (for `account`), and a token endpoint that checks the client's Basic credentials and the
 * PKCE verifier before it signs an RS256 ID token carrying the nonce it was given.
 */
export async function startFakeOidc(client: { id: string; secret: string }): Promise<FakeOidc> {
  const keys = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(keys.publicKey)), kid: 'e2e-key', alg: 'RS256', use: 'sig' };
  const codes = new Map<string, { nonce: string; challenge: string; account: FakeOidc['account'] }>();
  let issuer = '';
  const fake: FakeOidc = Object.assign(
    await startFake((req, body, res) => {
      const url = new URL(req.url ?? '/', issuer);
      if (url.pathname === '/.well-known/openid-configuration') {
        sendJson(res, 200, {
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          jwks_uri: `${issuer}/jwks`,
          id_token_signing_alg_values_supported: ['RS256'],
        });
      } else if (url.pathname === '/jwks') {
        sendJson(res, 200, { keys: [jwk] });
      } else if (url.pathname === '/authorize') {
        const code = `oidc-e2e-${codes.size + 1}`;
        const asked = url.searchParams;
        codes.set(code, {
          nonce: asked.get('nonce') ?? '',
          challenge: asked.get('code_challenge') ?? '',
          account: { ...fake.account },
        });
        const back = new URL(asked.get('redirect_uri') ?? '');
        back.search = new URLSearchParams({ code, state: asked.get('state') ?? '' }).toString();
        res.writeHead(302, { location: back.toString() });
        res.end();
      } else if (url.pathname === '/token') {
        const form = new URLSearchParams(body);
        const basic = `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`;
        const issued = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        const verifier = createHash('sha256')
          .update(form.get('code_verifier') ?? '')
          .digest('base64url');
        if (req.headers.authorization !== basic || !issued || verifier !== issued.challenge) {
          sendJson(res, 400, { error: 'invalid_grant' });
          return;
        }
        const now = Math.floor(Date.now() / 1000);
        const { sub, name, email } = issued.account;
        void new SignJWT({ name, email, email_verified: true, nonce: issued.nonce })
          .setProtectedHeader({ alg: 'RS256', kid: jwk.kid })
          .setIssuer(issuer)
          .setAudience(client.id)
          .setSubject(sub)
          .setIssuedAt(now)
          .setExpirationTime(now + 300)
          .sign(keys.privateKey)
          .then((idToken) =>
            sendJson(res, 200, { access_token: 'at', token_type: 'Bearer', id_token: idToken }),
          );
      } else {
        sendJson(res, 404, {});
      }
    }),
    { account: { sub: 'e2e-subject', name: 'OIDC Person', email: 'person@example.com' } },
  );
  issuer = fake.url;
  return fake;
}
