import { z } from 'zod';
import { DomainError } from '../errors';
import { requestJson } from '../outbound-json';
import type { ExternalIdentity } from './accounts';

export interface LarkApp {
  clientId: string;
  clientSecret: string;
  /** Where Lark sent the visitor back: <ServerAddress>/oauth/lark */
  redirectUri: string;
  /** https://open.feishu.cn (token endpoint) */
  apiUrl: string;
  /** https://passport.feishu.cn (user info) */
  passportUrl: string;
}

const tokenAnswer = z.object({
  code: z.number().optional(),
  access_token: z.string().optional(),
  error: z.string().optional(),
  error_description: z.string().optional(),
});

const userAnswer = z.object({ open_id: z.string().optional(), name: z.string().nullish() });

/** Trades the code Lark sent back for a user access token, then reads who it belongs to (id = open_id). */
export async function fetchLarkIdentity(app: LarkApp, code: string): Promise<ExternalIdentity> {
  const token = await requestJson('lark', `${app.apiUrl}/open-apis/authen/v2/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify({
      grant_type: 'authorization_code',
      client_id: app.clientId,
      client_secret: app.clientSecret,
      code,
      redirect_uri: app.redirectUri,
    }),
  });
  const granted = tokenAnswer.safeParse(token.body);
  const accessToken = granted.success ? granted.data.access_token : undefined;
  if (!accessToken) {
    const reason = granted.success ? granted.data.error_description || granted.data.error : undefined;
    throw reason
      ? new DomainError('oauth_code_refused_because', { provider: 'Lark', reason })
      : new DomainError('oauth_code_refused', { provider: 'Lark' });
  }
  const user = await requestJson('lark', `${app.passportUrl}/suite/passport/oauth/userinfo`, {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  const parsed = userAnswer.safeParse(user.body);
  const openId = parsed.success ? parsed.data.open_id : undefined;
  if (user.status !== 200 || !parsed.success || !openId) {
    throw new DomainError('oauth_no_account', { provider: 'Lark' });
  }
  return { id: openId, name: parsed.data.name ?? '', email: '' };
}
