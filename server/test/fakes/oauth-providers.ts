import { HttpFake, sendJson } from './http-fake';

export interface ProviderAccount {
  id: string;
  name?: string;
  email?: string;
}

/**
 * GitHub's OAuth token endpoint and user API in one server: a code from `issueCode` trades for a
 * token once, and the token answers that account on GET /user.
 */
export function fakeGitHub(clientId: string, clientSecret: string) {
  const codes = new Map<string, ProviderAccount>();
  const tokens = new Map<string, ProviderAccount>();
  const fake = new HttpFake((request, res) => {
    const path = request.url.split('?')[0];
    if (request.method === 'POST' && path === '/login/oauth/access_token') {
      const body = request.json ?? {};
      // A GitHub that never answers, to see the gateway give up.
      if (body.code === 'hang') return;
      const account = codes.get(String(body.code));
      if (body.client_id !== clientId || body.client_secret !== clientSecret) {
        return sendJson(res, 200, {
          error: 'incorrect_client_credentials',
          error_description: 'The client_id and/or client_secret passed are incorrect.',
        });
      }
      if (!account) {
        return sendJson(res, 200, {
          error: 'bad_verification_code',
          error_description: 'The code passed is incorrect or expired.',
        });
      }
      codes.delete(String(body.code));
      const token = `gho_${Math.random().toString(36).slice(2)}`;
      tokens.set(token, account);
      return sendJson(res, 200, { access_token: token, token_type: 'bearer', scope: 'user:email' });
    }
    if (request.method === 'GET' && path === '/user') {
      const token = String(request.headers.authorization ?? '').replace(/^Bearer /, '');
      const account = tokens.get(token);
      if (!account) return sendJson(res, 401, { message: 'Bad credentials' });
      return sendJson(res, 200, {
        login: account.id,
        id: 1,
        name: account.name ?? null,
        email: account.email ?? null,
      });
    }
    sendJson(res, 404, { message: 'Not Found' });
  });
  let next = 0;
  return {
    fake,
    issueCode(account: ProviderAccount): string {
      const code = `gh-code-${++next}`;
      codes.set(code, account);
      return code;
    },
  };
}

/** Lark's token endpoint (open.feishu.cn, v2) and user info (passport.feishu.cn) in one server. */
export function fakeLark(clientId: string, clientSecret: string) {
  const codes = new Map<string, ProviderAccount>();
  const tokens = new Map<string, ProviderAccount>();
  const fake = new HttpFake((request, res) => {
    const path = request.url.split('?')[0];
    if (request.method === 'POST' && path === '/open-apis/authen/v2/oauth/token') {
      const body = request.json ?? {};
      const account = codes.get(String(body.code));
      if (
        body.grant_type !== 'authorization_code' ||
        body.client_id !== clientId ||
        body.client_secret !== clientSecret
      ) {
        return sendJson(res, 400, {
          code: 20002,
          error: 'invalid_client',
          error_description: 'client credentials are wrong',
        });
      }
      if (!account) {
        return sendJson(res, 400, {
          code: 20003,
          error: 'invalid_grant',
          error_description: 'the code is invalid',
        });
      }
      codes.delete(String(body.code));
      const token = `u-${Math.random().toString(36).slice(2)}`;
      tokens.set(token, account);
      return sendJson(res, 200, { code: 0, access_token: token, expires_in: 7200, token_type: 'Bearer' });
    }
    if (request.method === 'GET' && path === '/suite/passport/oauth/userinfo') {
      const token = String(request.headers.authorization ?? '').replace(/^Bearer /, '');
      const account = tokens.get(token);
      if (!account) return sendJson(res, 401, { code: 99991663, msg: 'invalid access token' });
      return sendJson(res, 200, {
        open_id: account.id,
        union_id: `on_${account.id}`,
        name: account.name ?? '',
      });
    }
    sendJson(res, 404, { msg: 'not found' });
  });
  let next = 0;
  return {
    fake,
    issueCode(account: ProviderAccount): string {
      const code = `lark-code-${++next}`;
      codes.set(code, account);
      return code;
    },
  };
}
