import { describe, expect, it } from 'vitest';
import { githubAuthorizeUrl, larkAuthorizeUrl } from './oauth';

describe('provider authorise addresses', () => {
  it('sends GitHub the client id, the state and the email scope', () => {
    const url = new URL(githubAuthorizeUrl('gh-client', 'st4te'));
    expect(url.origin + url.pathname).toBe('https://github.com/login/oauth/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'gh-client',
      state: 'st4te',
      scope: 'user:email',
    });
  });

  it('sends Lark the app id, the state and our callback', () => {
    const url = new URL(larkAuthorizeUrl('cli_app', 'st4te', 'https://gw.example.com'));
    expect(url.origin + url.pathname).toBe('https://open.feishu.cn/open-apis/authen/v1/index');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      redirect_uri: 'https://gw.example.com/oauth/lark',
      app_id: 'cli_app',
      state: 'st4te',
    });
  });
});
