import type { ProviderUrls } from '../../config/provider-urls';
import { DomainError } from '../errors';
import type { OptionsStore } from '../options';
import { serverAddress } from '../server-address';
import { fetchWeChatId } from '../wechat';
import type { ExternalIdentity, ExternalProvider } from './accounts';
import { fetchGitHubIdentity } from './github';
import { fetchLarkIdentity } from './lark';

/** The providers whose code alone says who signed in (OpenID Connect has its own flow: oidc.ts). */
export type CodeProvider = Exclude<ExternalProvider, 'oidc'>;

/** Turns the code a provider sent back into who signed in, once the administrator has set it up. */
export class ExternalIdentities {
  constructor(private readonly deps: { options: OptionsStore; urls: ProviderUrls }) {}

  fetch(provider: CodeProvider, code: string): Promise<ExternalIdentity> {
    switch (provider) {
      case 'github':
        return this.#github(code);
      case 'lark':
        return this.#lark(code);
      case 'wechat':
        return fetchWeChatId(this.deps.options, code).then((id) => ({ id, name: '', email: '' }));
    }
  }

  async #github(code: string): Promise<ExternalIdentity> {
    const { options, urls } = this.deps;
    if (!options.bool('GitHubOAuthEnabled')) {
      throw new DomainError('github_login_disabled');
    }
    return fetchGitHubIdentity(
      {
        clientId: options.get('GitHubClientId'),
        clientSecret: options.get('GitHubClientSecret'),
        oauthUrl: urls.githubOAuth,
        apiUrl: urls.githubApi,
      },
      code,
    );
  }

  async #lark(code: string): Promise<ExternalIdentity> {
    const { options, urls } = this.deps;
    // one-api has no switch for Lark: it is on once a client id is set.
    if (!options.get('LarkClientId')) throw new DomainError('lark_login_not_set_up');
    return fetchLarkIdentity(
      {
        clientId: options.get('LarkClientId'),
        clientSecret: options.get('LarkClientSecret'),
        redirectUri: `${serverAddress(options)}/oauth/lark`,
        apiUrl: urls.larkApi,
        passportUrl: urls.larkPassport,
      },
      code,
    );
  }
}
