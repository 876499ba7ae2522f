/** `data` of GET /api/status. The console copies it to local storage. */
export interface ServerStatus {
  version: string;
  start_time: number;
  email_verification: boolean;
  github_oauth: boolean;
  github_client_id: string;
  lark_client_id: string;
  /** Sign-in with the OpenID Connect provider is on and set up. */
  oidc: boolean;
  /** The name on its button. */
  oidc_name: string;
  system_name: string;
  logo: string;
  footer_html: string;
  wechat_qrcode: string;
  wechat_login: boolean;
  server_address: string;
  turnstile_check: boolean;
  turnstile_site_key: string;
  top_up_link: string;
  chat_link: string;
  quota_per_unit: number;
  display_in_currency: boolean;
  display_token_stat: boolean;
  /** Visitors may read the price list (PublicPricingEnabled). */
  public_pricing: boolean;
}

export const PRODUCT_NAME = 'Switchyard';
export const SOURCE_URL = 'https://github.com/switchyard-gateway/switchyard';

/** The server address one-api reports while the ServerAddress option is unset. */
export const DEFAULT_SERVER_ADDRESS = 'http://localhost:3000';
