import { api } from './api-client';

/** The providers whose login (and account binding) goes through an authorise page. */
export type OAuthProvider = 'github' | 'lark' | 'oidc';

/** GET /api/oauth/state: the state string the provider sends back. */
export async function fetchOAuthState(): Promise<string> {
  const { data } = await api.get<string>('/api/oauth/state');
  return data ?? '';
}

export function githubAuthorizeUrl(clientId: string, state: string): string {
  const params = new URLSearchParams({ client_id: clientId, state, scope: 'user:email' });
  return `https://github.com/login/oauth/authorize?${params}`;
}

export function larkAuthorizeUrl(appId: string, state: string, origin: string): string {
  const params = new URLSearchParams({ redirect_uri: `${origin}/oauth/lark`, app_id: appId, state });
  return `https://open.feishu.cn/open-apis/authen/v1/index?${params}`;
}

/**
 * Fetch a state, then leave for the provider's authorise page. Login and binding share it:
 * the callback tells them apart by the session the server already holds.
 */
export async function startOAuth(provider: OAuthProvider, clientId: string): Promise<void> {
  if (provider === 'oidc') return startOidc();
  const state = await fetchOAuthState();
  if (!state) return;
  const url =
    provider === 'github'
      ? githubAuthorizeUrl(clientId, state)
      : larkAuthorizeUrl(clientId, state, window.location.origin);
  window.location.assign(url);
}

/** OpenID Connect: the server builds the authorise address (state, nonce, PKCE) and keeps their secrets. */
async function startOidc(): Promise<void> {
  const { data } = await api.get<string>('/api/oauth/oidc/start');
  if (data) window.location.assign(data);
}
