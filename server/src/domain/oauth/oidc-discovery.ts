import type { JWTVerifyGetKey } from 'jose';
import { z } from 'zod';
import { onFirstUse } from '../../on-first-use';
import { DomainError } from '../errors';
import { OUTBOUND_ANSWER_LIMIT_BYTES, OUTBOUND_TIMEOUT_MS, requestJson, textAtMost } from '../outbound-json';

/**
 * The algorithms an ID token may be signed with: the provider's public keys only. `none` and the HMAC
 * family (the client secret as the key) are never accepted, whatever the discovery document says.
 */
const ASYMMETRIC_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
];

/** A discovery document is kept this long, and its keys with it (jose refetches them on an unknown kid). */
const DISCOVERY_TTL_MS = 60 * 60 * 1000;

const webUrl = z.string().refine((value) => /^https?:\/\//i.test(value) && URL.canParse(value));

const discoveryDocument = z.object({
  issuer: z.string(),
  authorization_endpoint: webUrl,
  token_endpoint: webUrl,
  jwks_uri: webUrl,
  id_token_signing_alg_values_supported: z.array(z.string()).optional(),
  token_endpoint_auth_methods_supported: z.array(z.string()).optional(),
});

/** What this server uses of an OpenID Connect provider. */
export interface OidcProvider {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  /** How the client authenticates at the token endpoint. */
  authMethod: 'client_secret_basic' | 'client_secret_post';
  algorithms: string[];
  keys: JWTVerifyGetKey;
}

/** The JWKS read with the same size limit as every outside answer (jose's own fetch has none). */
const limitedFetch = async (url: string, init: RequestInit): Promise<Response> => {
  const response = await fetch(url, init);
  const text = await textAtMost(response, OUTBOUND_ANSWER_LIMIT_BYTES);
  return new Response(text, { status: response.status, headers: { 'content-type': 'application/json' } });
};

const jose = onFirstUse(() => import('jose'));

async function discover(issuer: string): Promise<OidcProvider> {
  const url = `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
  const answer = await requestJson('oidc', url);
  const parsed = discoveryDocument.safeParse(answer.body);
  if (answer.status !== 200 || !parsed.success) {
    throw new DomainError('oidc_discovery_unreadable', { url, status: answer.status });
  }
  const document = parsed.data;
  // Discovery 1.0 section 4.3: the document must name the very issuer it was fetched for.
  if (document.issuer !== issuer) {
    throw new DomainError('oidc_discovery_issuer_mismatch', {
      found: document.issuer.slice(0, 200),
      expected: issuer,
    });
  }
  const offered = document.id_token_signing_alg_values_supported ?? ['RS256'];
  const algorithms = offered.filter((algorithm) => ASYMMETRIC_ALGORITHMS.includes(algorithm));
  if (algorithms.length === 0) {
    throw new DomainError('oidc_no_signing_algorithm', { algorithms: offered.join(', ').slice(0, 200) });
  }
  // RFC 8414: client_secret_basic when the provider names no method.
  const methods = document.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
  const authMethod =
    !methods.includes('client_secret_basic') && methods.includes('client_secret_post')
      ? 'client_secret_post'
      : 'client_secret_basic';
  const { createRemoteJWKSet, customFetch } = await jose();
  return {
    issuer,
    authorizationEndpoint: document.authorization_endpoint,
    tokenEndpoint: document.token_endpoint,
    authMethod,
    algorithms,
    keys: createRemoteJWKSet(new URL(document.jwks_uri), {
      timeoutDuration: OUTBOUND_TIMEOUT_MS,
      [customFetch]: limitedFetch,
    }),
  };
}

/** Discovery documents by issuer, fetched once an hour; a failed fetch is not kept, so the next try asks again. */
export class OidcDiscovery {
  readonly #known = new Map<string, { expiresAt: number; provider: Promise<OidcProvider> }>();

  constructor(private readonly clock: () => number = Date.now) {}

  provider(issuer: string): Promise<OidcProvider> {
    const now = this.clock();
    const known = this.#known.get(issuer);
    if (known && known.expiresAt > now) return known.provider;
    const provider = discover(issuer);
    // Only the current issuer is kept: an administrator trying issuers leaves no trail of them.
    this.#known.clear();
    this.#known.set(issuer, { expiresAt: now + DISCOVERY_TTL_MS, provider });
    provider.catch(() => {
      if (this.#known.get(issuer)?.provider === provider) this.#known.delete(issuer);
    });
    return provider;
  }
}
