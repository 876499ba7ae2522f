import type { ServerStatus } from '@switchyard/contract/status';
import type { FastifyInstance } from 'fastify';
import { serverAddress } from '../../domain/server-address';
import { ok } from '../envelope';
import type { Services } from '../services';

export function statusRoutes(app: FastifyInstance, { options, config, startTime, oidc }: Services): void {
  app.get('/api/status', async () => {
    const status: ServerStatus = {
      version: config.version,
      start_time: startTime,
      email_verification: options.bool('EmailVerificationEnabled'),
      github_oauth: options.bool('GitHubOAuthEnabled'),
      github_client_id: options.get('GitHubClientId'),
      lark_client_id: options.get('LarkClientId'),
      oidc: options.bool('OidcEnabled') && Boolean(options.get('OidcIssuer') && options.get('OidcClientId')),
      oidc_name: oidc.displayName(),
      system_name: options.get('SystemName'),
      logo: options.get('Logo'),
      footer_html: options.get('Footer'),
      wechat_qrcode: options.get('WeChatAccountQRCodeImageURL'),
      wechat_login: options.bool('WeChatAuthEnabled'),
      server_address: serverAddress(options),
      turnstile_check: options.bool('TurnstileCheckEnabled'),
      turnstile_site_key: options.get('TurnstileSiteKey'),
      top_up_link: options.get('TopUpLink'),
      chat_link: options.get('ChatLink'),
      quota_per_unit: options.number('QuotaPerUnit'),
      display_in_currency: options.bool('DisplayInCurrencyEnabled'),
      display_token_stat: options.bool('DisplayTokenStatEnabled'),
      public_pricing: options.bool('PublicPricingEnabled'),
    };
    return ok(status);
  });
  app.get('/api/notice', async () => ok(options.get('Notice')));
  app.get('/api/about', async () => ok(options.get('About')));
  app.get('/api/home_page_content', async () => ok(options.get('HomePageContent')));
}
