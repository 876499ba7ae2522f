import { createHash } from 'node:crypto';
import { request } from 'undici';
import { onFirstUse } from '../../../on-first-use';
import { RelayError } from '../../errors';
import type { ServiceAccount } from './credentials';

const SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
const ASSERTION_LIFETIME_S = 3600;
/** A token is replaced this long before Google says it expires. */
const REFRESH_MARGIN_MS = 5 * 60 * 1000;
const EXCHANGE_TIMEOUT_MS = 10_000;
const MAX_CACHED = 1000;

const exchangeFailed = (status: number, message: string) =>
  RelayError.upstream(status, `Could not get a Google access token: ${message}`, {
    type: status === 401 ? 'authentication_error' : 'upstream_error',
    code: 'token_exchange_failed',
  });

const jose = onFirstUse(() => import('jose'));

/** OAuth 2.0 JWT bearer grant: an RS256 assertion signed with the service account's key. */
async function exchange(account: ServiceAccount): Promise<{ token: string; expiresIn: number }> {
  const { importPKCS8, SignJWT } = await jose();
  let assertion: string;
  try {
    const key = await importPKCS8(account.privateKey, 'RS256');
    assertion = await new SignJWT({ scope: SCOPE })
      .setProtectedHeader({
        alg: 'RS256',
        typ: 'JWT',
        ...(account.privateKeyId ? { kid: account.privateKeyId } : {}),
      })
      .setIssuer(account.clientEmail)
      .setAudience(account.tokenUri)
      .setIssuedAt()
      .setExpirationTime(`${ASSERTION_LIFETIME_S}s`)
      .sign(key);
  } catch {
    // The reason would quote nothing useful and may quote the key: it stays out.
    throw exchangeFailed(401, 'the service account private_key is not a PKCS#8 RSA key');
  }
  let status: number;
  let text: string;
  try {
    const response = await request(account.tokenUri, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
        assertion,
      }).toString(),
      signal: AbortSignal.timeout(EXCHANGE_TIMEOUT_MS),
    });
    status = response.statusCode;
    text = await response.body.text();
  } catch {
    throw exchangeFailed(502, 'the token endpoint could not be reached');
  }
  let answer: { access_token?: unknown; expires_in?: unknown; error?: unknown; error_description?: unknown };
  try {
    answer = JSON.parse(text);
  } catch {
    answer = {};
  }
  if (status !== 200 || typeof answer.access_token !== 'string' || !answer.access_token) {
    const reason = [answer.error, answer.error_description]
      .filter((part) => typeof part === 'string')
      .join(': ');
    throw exchangeFailed(
      status === 400 || status === 401 || status === 403 ? 401 : 502,
      reason || `status ${status}`,
    );
  }
  return { token: answer.access_token, expiresIn: Number(answer.expires_in) || ASSERTION_LIFETIME_S };
}

interface Cached {
  token: string;
  refreshAt: number;
}

/**
 * Access tokens per channel and service account, exchanged on first use and kept until shortly
 * before they expire; concurrent first calls share one exchange. A changed key file gets its own.
 */
export class VertexTokens {
  readonly #cached = new Map<string, Cached>();
  readonly #pending = new Map<string, Promise<string>>();

  constructor(private readonly now: () => number = Date.now) {}

  get(channelId: number, account: ServiceAccount): Promise<string> {
    const fingerprint = createHash('sha256').update(
      `${account.clientEmail}\n${account.privateKey}\n${account.tokenUri}`,
    );
    const id = `${channelId}\n${fingerprint.digest('hex')}`;
    const cached = this.#cached.get(id);
    if (cached && this.now() < cached.refreshAt) return Promise.resolve(cached.token);
    const pending = this.#pending.get(id);
    if (pending) return pending;
    const started = this.now();
    const next = exchange(account)
      .then(({ token, expiresIn }) => {
        if (this.#cached.size >= MAX_CACHED) this.#cached.clear();
        this.#cached.set(id, {
          token,
          refreshAt: started + Math.max(0, expiresIn * 1000 - REFRESH_MARGIN_MS),
        });
        return token;
      })
      .finally(() => this.#pending.delete(id));
    this.#pending.set(id, next);
    return next;
  }
}

/** The tokens of every Vertex AI channel in this process. */
export const vertexTokens = new VertexTokens();
