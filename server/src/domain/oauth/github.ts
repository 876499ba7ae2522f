import { z } from 'zod';
import { DomainError } from '../errors';
import { requestJson } from '../outbound-json';
import type { ExternalIdentity } from './accounts';

export interface GitHubApp {
  clientId: string;
  clientSecret: string;
  /** https://github.com (the token endpoint lives under it) */
  oauthUrl: string;
  /** https://api.github.com */
  apiUrl: string;
}

const tokenAnswer = z.object({
  access_token: z.string().optional(),
  error: z.string().optional(),
  error_description: z.string().optional(),
});

const userAnswer = z.object({
  login: z.string().optional(),
  name: z.string().nullish(),
  email: z.string().nullish(),
});

/** Trades the code GitHub sent back for an access token, then reads who it belongs to (id = login). */
export async function fetchGitHubIdentity(app: GitHubApp, code: string): Promise<ExternalIdentity> {
  const token = await requestJson('github', `${app.oauthUrl}/login/oauth/access_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: app.clientId, client_secret: app.clientSecret, code }),
  });
  const granted = tokenAnswer.safeParse(token.body);
  const accessToken = granted.success ? granted.data.access_token : undefined;
  if (!accessToken) {
    const reason = granted.success ? granted.data.error_description || granted.data.error : undefined;
    throw reason
      ? new DomainError('oauth_code_refused_because', { provider: 'GitHub', reason })
      : new DomainError('oauth_code_refused', { provider: 'GitHub' });
  }
  const user = await requestJson('github', `${app.apiUrl}/user`, {
    headers: {
      authorization: `Bearer ${accessToken}`,
      accept: 'application/vnd.github+json',
      'user-agent': 'Switchyard',
    },
  });
  const parsed = userAnswer.safeParse(user.body);
  const login = parsed.success ? parsed.data.login : undefined;
  if (user.status !== 200 || !parsed.success || !login) {
    throw new DomainError('oauth_no_account', { provider: 'GitHub' });
  }
  return { id: login, name: parsed.data.name ?? '', email: parsed.data.email ?? '' };
}
