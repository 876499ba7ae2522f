import { createHash, randomBytes } from 'node:crypto';
import type { JWTPayload } from 'jose';
import { z } from 'zod';
import { onFirstUse } from '../../on-first-use';
import { DomainError } from '../errors';
import type { OptionsStore } from '../options';
import { OUTBOUND_TIMEOUT_MS, requestJson } from '../outbound-json';
import { randomAlphanumeric } from '../random';
import { redactSecrets } from '../redact-secrets';
import { serverAddress } from '../server-address';
import type { VerificationCodes } from '../verification-codes';
import type { ExternalIdentity } from './accounts';
import { OidcDiscovery, type OidcProvider } from './oidc-discovery';

/** What the visitor's (encrypted) session keeps between the authorisation request and the callback. */
export interface OidcPending {
  /** Names the state in the code store, where it is redeemed once. */
  flow: string;
  nonce: string;
  /** The PKCE code verifier; only its S256 hash left the server. */
  verifier: string;
}

/** The provider's answer on the callback (query parameters). */
export interface OidcCallback {
  state: string;
  code: string;
  error: string;
  errorDescription: string;
}

/** A subject longer than this is no OpenID Connect subject (Core 1.0: at most 255 ASCII characters). */
const OIDC_SUBJECT_MAX = 255;

/** Tolerated difference between our clock and the provider's when checking exp, iat and nbf. */
const CLOCK_TOLERANCE_SECONDS = 30;

const tokenAnswer = z.object({
  id_token: z.string().optional(),
  error: z.string().optional(),
  error_description: z.string().optional(),
});

const base64url = (bytes: Buffer): string => bytes.toString('base64url');

const jose = onFirstUse(() => import('jose'));
type JoseErrors = Awaited<ReturnType<typeof jose>>['errors'];

/** Each jose refusal named by the check it failed (a word of the protocol, shown as it is). */
function failedCheck(errors: JoseErrors, error: unknown): string | undefined {
  if (error instanceof errors.JWTExpired) return 'exp';
  if (error instanceof errors.JWTClaimValidationFailed) return error.claim;
  if (error instanceof errors.JOSEAlgNotAllowed) return 'alg';
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'signature';
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys)
    return 'kid';
  if (error instanceof errors.JWKSInvalid) return 'jwks';
  if (error instanceof errors.JWKSTimeout) return undefined;
  if (error instanceof errors.JOSEError) return 'format';
  return undefined;
}

/**
 * Sign-in with a generic OpenID Connect provider: the authorisation code flow with PKCE (S256),
 * `state` redeemed once from the code store and `nonce` checked in the ID token, which is verified
 * with the provider's published keys. The subject (`sub`) names the account.
 */
export class OidcSignIn {
  readonly #discovery: OidcDiscovery;

  constructor(private readonly deps: { options: OptionsStore; codes: VerificationCodes }) {
    this.#discovery = new OidcDiscovery();
  }

  /** The provider's authorisation URL to send the visitor to, and what their session must keep. */
  async start(): Promise<{ url: string; pending: OidcPending }> {
    const provider = await this.#provider();
    const { options, codes } = this.deps;
    const pending: OidcPending = {
      flow: randomAlphanumeric(32),
      nonce: randomAlphanumeric(32),
      verifier: base64url(randomBytes(32)),
    };
    const state = await codes.issue('oidc-state', pending.flow, 32);
    const url = new URL(provider.authorizationEndpoint);
    const scopes = new Set(options.get('OidcScopes').split(/\s+/).filter(Boolean));
    scopes.add('openid');
    const params: Record<string, string> = {
      response_type: 'code',
      client_id: options.get('OidcClientId'),
      redirect_uri: this.#redirectUri(),
      scope: [...scopes].join(' '),
      state,
      nonce: pending.nonce,
      code_challenge: base64url(createHash('sha256').update(pending.verifier).digest()),
      code_challenge_method: 'S256',
    };
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    return { url: url.toString(), pending };
  }

  /** Who signed in: the state is spent whatever happens next, the code traded and the ID token checked. */
  async finish(pending: OidcPending | undefined, callback: OidcCallback): Promise<ExternalIdentity> {
    const redeemed =
      pending !== undefined &&
      callback.state !== '' &&
      (await this.deps.codes.redeem('oidc-state', pending.flow, callback.state));
    if (!pending || !redeemed) throw new DomainError('oauth_state_mismatch', {}, 403);
    if (callback.error) {
      const reason = (callback.errorDescription || callback.error).slice(0, 200);
      throw new DomainError('oidc_sign_in_refused', { reason });
    }
    if (!callback.code) throw new DomainError('oauth_code_missing');
    const provider = await this.#provider();
    const idToken = await this.#exchange(provider, callback.code, pending.verifier);
    const claims = await this.#verify(provider, idToken, pending.nonce);
    const name = [claims.name, claims.preferred_username].find((value) => typeof value === 'string');
    // An address the provider has not verified could be anyone's: it is not taken.
    const email = claims.email_verified === true && typeof claims.email === 'string' ? claims.email : '';
    return { id: claims.sub as string, name: (name as string | undefined) ?? '', email };
  }

  /** The name on the button, and in messages about the provider. */
  displayName(): string {
    return this.deps.options.get('OidcDisplayName').trim() || 'OIDC';
  }

  #provider(): Promise<OidcProvider> {
    const { options } = this.deps;
    if (!options.bool('OidcEnabled') || !options.get('OidcIssuer') || !options.get('OidcClientId')) {
      throw new DomainError('oidc_login_disabled');
    }
    return this.#discovery.provider(options.get('OidcIssuer'));
  }

  #redirectUri(): string {
    return `${serverAddress(this.deps.options)}/oauth/oidc`;
  }

  async #exchange(provider: OidcProvider, code: string, verifier: string): Promise<string> {
    const { options } = this.deps;
    const clientId = options.get('OidcClientId');
    const clientSecret = options.get('OidcClientSecret');
    const form = new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: this.#redirectUri(),
      code_verifier: verifier,
    });
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
    if (provider.authMethod === 'client_secret_basic') {
      // RFC 6749 section 2.3.1: each part form-encoded before the Basic encoding.
      const pair = `${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`;
      headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
    } else {
      form.set('client_id', clientId);
      form.set('client_secret', clientSecret);
    }
    const answer = await requestJson('oidc', provider.tokenEndpoint, {
      method: 'POST',
      headers,
      body: form.toString(),
    });
    const granted = tokenAnswer.safeParse(answer.body);
    const idToken = granted.success && answer.status === 200 ? granted.data.id_token : undefined;
    if (idToken) return idToken;
    const said = granted.success ? granted.data.error_description || granted.data.error : undefined;
    // The provider's words are shown to the visitor: never with our secret in them, should it echo it.
    const reason = said && redactSecrets(said, clientSecret).slice(0, 200);
    const provided = { provider: this.displayName() };
    throw reason
      ? new DomainError('oauth_code_refused_because', { ...provided, reason })
      : new DomainError('oauth_code_refused', provided);
  }

  async #verify(provider: OidcProvider, idToken: string, nonce: string): Promise<JWTPayload> {
    const clientId = this.deps.options.get('OidcClientId');
    const { errors, jwtVerify } = await jose();
    let claims: JWTPayload;
    try {
      ({ payload: claims } = await jwtVerify(idToken, provider.keys, {
        issuer: provider.issuer,
        audience: clientId,
        algorithms: provider.algorithms,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ['sub', 'exp', 'iat'],
      }));
    } catch (error) {
      const check = failedCheck(errors, error);
      if (check) throw new DomainError('oidc_id_token_invalid', { check }, 403);
      if (error instanceof errors.JWKSTimeout) {
        throw new DomainError('oidc_timeout', { seconds: OUTBOUND_TIMEOUT_MS / 1000 });
      }
      throw new DomainError('oidc_unreachable');
    }
    const failed = (check: string) => new DomainError('oidc_id_token_invalid', { check }, 403);
    if (claims.nonce !== nonce) throw failed('nonce');
    // Core 1.0 section 3.1.3.7: with several audiences, the authorised party must be us.
    if (Array.isArray(claims.aud) && claims.aud.length > 1 && claims.azp !== clientId) throw failed('azp');
    if (typeof claims.sub !== 'string' || !claims.sub || claims.sub.length > OIDC_SUBJECT_MAX) {
      throw failed('sub');
    }
    return claims;
  }
}
