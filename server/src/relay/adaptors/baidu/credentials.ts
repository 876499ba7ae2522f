import { request } from 'undici';
import { RelayError } from '../../errors';
import { type BaiduTokenResponse, TOKEN_PATH } from './wire';

export interface BaiduCredentials {
  apiKey: string;
  secretKey: string;
}

/** The channel key is `APIKey|SecretKey` of a Qianfan application. */
export function credentialsOf(key: string): BaiduCredentials {
  const [apiKey = '', secretKey = '', ...rest] = key.split('|');
  if (!apiKey.trim() || !secretKey.trim() || rest.length > 0) {
    throw RelayError.upstream(401, 'The Baidu Wenxin channel key must be APIKey|SecretKey', {
      type: 'authentication_error',
      code: 'invalid_channel_key',
    });
  }
  return { apiKey: apiKey.trim(), secretKey: secretKey.trim() };
}

export interface ExchangedToken {
  token: string;
  /** Seconds the token is valid for. */
  expiresIn: number;
}

export type TokenExchange = (baseUrl: string, credentials: BaiduCredentials) => Promise<ExchangedToken>;

interface CachedToken {
  token: string;
  expiresAt: number;
  /** From here on the token is still used, but a new one is fetched beside it. */
  refreshAt: number;
}

/** Refresh this long before expiry (one-api's rule), or a tenth of the lifetime for short-lived tokens. */
const REFRESH_MARGIN_MS = 60 * 60 * 1000;
/** When Baidu does not say how long a token lasts, assume an hour. */
const DEFAULT_LIFETIME_S = 60 * 60;
const MAX_CACHED = 1000;
const EXCHANGE_TIMEOUT_MS = 5000;

/**
 * Access tokens per channel key (and base URL), exchanged on first use and kept until shortly before
 * they expire. Calls that need a token while one is being fetched wait for that same exchange, so a burst
 * of calls on a new or expired key costs one exchange. A failed exchange is not remembered.
 */
export class AccessTokens {
  readonly #cached = new Map<string, CachedToken>();
  readonly #pending = new Map<string, Promise<CachedToken>>();

  constructor(
    private readonly exchange: TokenExchange,
    private readonly now: () => number = Date.now,
  ) {}

  async get(baseUrl: string, key: string): Promise<string> {
    const id = `${baseUrl}\n${key}`;
    const cached = this.#cached.get(id);
    const now = this.now();
    if (cached && now < cached.expiresAt) {
      // Close to expiry: fetch the next token in the background and keep using this one meanwhile.
      if (now >= cached.refreshAt) this.#refresh(id, baseUrl, key).catch(() => undefined);
      return cached.token;
    }
    return (await this.#refresh(id, baseUrl, key)).token;
  }

  /** Forgets every token: Baidu refused one it had issued (revoked, or expired early). */
  clear(): void {
    this.#cached.clear();
  }

  #refresh(id: string, baseUrl: string, key: string): Promise<CachedToken> {
    const pending = this.#pending.get(id);
    if (pending) return pending;
    // The lifetime counts from before the request, so our idea of expiry is never later than Baidu's.
    const started = this.now();
    const exchange = (async () => {
      const { token, expiresIn } = await this.exchange(baseUrl, credentialsOf(key));
      const lifetime = (expiresIn > 0 ? expiresIn : DEFAULT_LIFETIME_S) * 1000;
      const cached = {
        token,
        expiresAt: started + lifetime,
        refreshAt: started + lifetime - Math.min(REFRESH_MARGIN_MS, lifetime / 10),
      };
      if (this.#cached.size >= MAX_CACHED) this.#cached.clear();
      this.#cached.set(id, cached);
      return cached;
    })().finally(() => this.#pending.delete(id));
    this.#pending.set(id, exchange);
    return exchange;
  }
}

const tokenError = (status: number, message: string, type: string, code: string) =>
  RelayError.upstream(status, message, { type, code });

/** Baidu's OAuth endpoint (client_credentials grant) on the channel's base URL; a 5-second limit. */
export async function exchangeAtBaidu(
  baseUrl: string,
  credentials: BaiduCredentials,
): Promise<ExchangedToken> {
  const query = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: credentials.apiKey,
    client_secret: credentials.secretKey,
  });
  let status: number;
  let text: string;
  try {
    const response = await request(`${baseUrl}${TOKEN_PATH}?${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      signal: AbortSignal.timeout(EXCHANGE_TIMEOUT_MS),
    });
    status = response.statusCode;
    text = await response.body.text();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw tokenError(
      502,
      `Could not get a Baidu access token: ${reason}`,
      'upstream_error',
      'token_exchange_failed',
    );
  }
  let answer: BaiduTokenResponse;
  try {
    answer = JSON.parse(text) as BaiduTokenResponse;
  } catch {
    answer = {};
  }
  if (answer.error === 'invalid_client') {
    // An unknown API key or a wrong secret: the channel's key is dead.
    throw tokenError(
      401,
      `Baidu refused the channel's API key: ${answer.error_description || answer.error}`,
      'authentication_error',
      'invalid_api_key',
    );
  }
  if (answer.error || !answer.access_token) {
    const detail = answer.error
      ? `${answer.error}: ${answer.error_description ?? ''}`.trim()
      : `status ${status}, no access_token`;
    throw tokenError(
      502,
      `Could not get a Baidu access token (${detail})`,
      'upstream_error',
      'token_exchange_failed',
    );
  }
  return { token: answer.access_token, expiresIn: Number(answer.expires_in) || 0 };
}

/** The tokens of every Baidu channel in this process. */
export const accessTokens = new AccessTokens(exchangeAtBaidu);
