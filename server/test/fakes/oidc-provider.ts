import { createHash } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';
import { HttpFake, sendJson } from './http-fake';

/** Who signs in at the fake, and what its ID token says beyond the usual claims. */
export interface OidcAccount {
  sub: string;
  claims?: JWTPayload;
  /** Sign with a key the provider never published (under the published key's id). */
  forgeSignature?: boolean;
}

interface IssuedCode {
  account: OidcAccount;
  clientId: string;
  redirectUri: string;
  nonce: string;
  challenge: string;
}

/**
 * An OpenID Connect provider on loopback: discovery, JWKS, an authorise endpoint that redirects back
 * with a code (for whoever `signInAs` names), and a token endpoint that checks the client's
 * credentials (Basic or in the form), the redirect URI and the PKCE verifier before it signs an ID
 * token with an RS256 key of its own. Codes trade once.
 */
export async function fakeOidcProvider(client: { id: string; secret: string }) {
  const signing = await generateKeyPair('RS256');
  const stranger = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(signing.publicKey)), kid: 'fake-key-1', alg: 'RS256', use: 'sig' };
  const codes = new Map<string, IssuedCode>();
  let account: OidcAccount = { sub: 'nobody' };
  let next = 0;
  const state = {
    /** Extra fields of the discovery document (or overrides). */
    discovery: {} as Record<string, unknown>,
    /** What the token endpoint saw last: how the client authenticated and the form. */
    lastToken: undefined as { authorization: string; form: URLSearchParams } | undefined,
  };

  const fake = new HttpFake(async (request, res) => {
    const url = new URL(request.url, fake.url);
    if (request.method === 'GET' && url.pathname === '/.well-known/openid-configuration') {
      return sendJson(res, 200, {
        issuer: fake.url,
        authorization_endpoint: `${fake.url}/authorize`,
        token_endpoint: `${fake.url}/token`,
        jwks_uri: `${fake.url}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
        ...state.discovery,
      });
    }
    if (request.method === 'GET' && url.pathname === '/jwks') return sendJson(res, 200, { keys: [jwk] });
    if (request.method === 'GET' && url.pathname === '/authorize') {
      const asked = url.searchParams;
      const redirect = new URL(asked.get('redirect_uri') ?? '');
      if (asked.get('code_challenge_method') !== 'S256' || !asked.get('code_challenge')) {
        redirect.searchParams.set('error', 'invalid_request');
      } else {
        const code = `oidc-code-${++next}`;
        codes.set(code, {
          account,
          clientId: asked.get('client_id') ?? '',
          redirectUri: asked.get('redirect_uri') ?? '',
          nonce: asked.get('nonce') ?? '',
          challenge: asked.get('code_challenge') ?? '',
        });
        redirect.searchParams.set('code', code);
      }
      redirect.searchParams.set('state', asked.get('state') ?? '');
      res.writeHead(302, { location: redirect.toString() });
      res.end();
      return;
    }
    if (request.method === 'POST' && url.pathname === '/token') {
      const form = new URLSearchParams(request.body);
      const authorization = String(request.headers.authorization ?? '');
      state.lastToken = { authorization, form };
      const basic = Buffer.from(authorization.replace(/^Basic /, ''), 'base64').toString();
      const [id, secret] = authorization ? basic.split(':').map(decodeURIComponent) : [];
      const clientId = id ?? form.get('client_id');
      const clientSecret = secret ?? form.get('client_secret');
      if (clientId !== client.id || clientSecret !== client.secret) {
        return sendJson(res, 401, { error: 'invalid_client' });
      }
      // A provider that quotes the credentials it was sent back in its refusal.
      if (form.get('code') === 'echo') {
        return sendJson(res, 400, {
          error: 'invalid_grant',
          error_description: `bad code for ${clientSecret}`,
        });
      }
      const issued = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      if (!issued || issued.redirectUri !== form.get('redirect_uri')) {
        return sendJson(res, 400, { error: 'invalid_grant', error_description: 'unknown code' });
      }
      const verifier = form.get('code_verifier') ?? '';
      if (createHash('sha256').update(verifier).digest('base64url') !== issued.challenge) {
        return sendJson(res, 400, { error: 'invalid_grant', error_description: 'PKCE verification failed' });
      }
      const now = Math.floor(Date.now() / 1000);
      const idToken = await new SignJWT({
        iss: fake.url,
        aud: issued.clientId,
        sub: issued.account.sub,
        iat: now,
        exp: now + 300,
        nonce: issued.nonce,
        ...issued.account.claims,
      })
        .setProtectedHeader({ alg: 'RS256', kid: jwk.kid })
        .sign(issued.account.forgeSignature ? stranger.privateKey : signing.privateKey);
      return sendJson(res, 200, {
        access_token: 'at',
        token_type: 'Bearer',
        expires_in: 300,
        id_token: idToken,
      });
    }
    sendJson(res, 404, { error: 'not_found' });
  });

  return {
    fake,
    state,
    /** The account the next authorisation signs in. */
    signInAs(next: OidcAccount): void {
      account = next;
    },
  };
}
