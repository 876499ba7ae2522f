import { DEFAULT_AUDIO_COMPLETION_RATIO_JSON, DEFAULT_AUDIO_RATIO_JSON } from './audio-ratios';
import { isHttpBaseUrl, trimBaseUrl } from './base-url';
import { DEFAULT_CACHE_READ_RATIO_JSON, DEFAULT_CACHE_WRITE_RATIO_JSON } from './cache-ratios';
import { DEFAULT_COMPLETION_RATIO_JSON, DEFAULT_MODEL_RATIO_JSON } from './model-ratios';
import { isTwoDecimalCurrency, parseAmountOptions, priceInMinorUnits } from './payments';
import { type ErrorDetail, renderError } from './render-error';
import { splitList } from './tokens';

/**
 * Every system option: its kind (how a value is checked), default (one-api's) and whether it is a secret.
 * All values travel and are stored as strings.
 */
export type OptionKind = 'boolean' | 'number' | 'integer' | 'ratio-json' | 'string' | 'theme';

export interface OptionSpec {
  kind: OptionKind;
  default: string;
  /** Never returned by GET /api/option/; saved only when non-empty. */
  secret?: boolean;
}

export const THEMES = ['default', 'berry', 'air'] as const;

export const DEFAULT_EMAIL_DOMAIN_WHITELIST = [
  'gmail.com',
  '163.com',
  '126.com',
  'qq.com',
  'outlook.com',
  'hotmail.com',
  'icloud.com',
  'yahoo.com',
  'foxmail.com',
].join(',');

export const OIDC_DEFAULT_SCOPES = 'openid profile email';

export const DEFAULT_GROUP_RATIO = '{"default":1,"vip":1,"svip":1}';

const bool = (value: boolean): OptionSpec => ({ kind: 'boolean', default: String(value) });
const int = (value: number): OptionSpec => ({ kind: 'integer', default: String(value) });
const num = (value: number): OptionSpec => ({ kind: 'number', default: String(value) });
const str = (value = ''): OptionSpec => ({ kind: 'string', default: value });
const secret: OptionSpec = { kind: 'string', default: '', secret: true };

export const OPTION_SPECS = {
  PasswordLoginEnabled: bool(true),
  PasswordRegisterEnabled: bool(true),
  /** Administrators (and root) must sign in with a second factor; those without one enrol first. */
  TwoFactorRequiredForAdmins: bool(false),
  EmailVerificationEnabled: bool(false),
  RegisterEnabled: bool(true),
  EmailDomainRestrictionEnabled: bool(false),
  EmailDomainWhitelist: str(DEFAULT_EMAIL_DOMAIN_WHITELIST),
  GitHubOAuthEnabled: bool(false),
  GitHubClientId: str(),
  GitHubClientSecret: secret,
  LarkClientId: str(),
  LarkClientSecret: secret,
  OidcEnabled: bool(false),
  /** The OpenID Connect issuer; its discovery document is at {issuer}/.well-known/openid-configuration. */
  OidcIssuer: str(),
  OidcClientId: str(),
  OidcClientSecret: secret,
  OidcScopes: str(OIDC_DEFAULT_SCOPES),
  /** The name on the sign-in button. */
  OidcDisplayName: str('OIDC'),
  WeChatAuthEnabled: bool(false),
  WeChatServerAddress: str(),
  WeChatServerToken: secret,
  WeChatAccountQRCodeImageURL: str(),
  MessagePusherAddress: str(),
  MessagePusherToken: secret,
  TurnstileCheckEnabled: bool(false),
  TurnstileSiteKey: str(),
  TurnstileSecretKey: secret,
  SMTPServer: str(),
  SMTPPort: int(587),
  SMTPAccount: str(),
  SMTPFrom: str(),
  SMTPToken: secret,
  ServerAddress: str(),
  Notice: str(),
  Footer: str(),
  About: str(),
  SystemName: str('Switchyard'),
  Logo: str(),
  HomePageContent: str(),
  Theme: { kind: 'theme', default: 'default' },
  QuotaForNewUser: int(0),
  QuotaForInviter: int(0),
  QuotaForInvitee: int(0),
  QuotaRemindThreshold: int(1000),
  PreConsumedQuota: int(500),
  QuotaPerUnit: num(500000),
  ModelRatio: { kind: 'ratio-json', default: DEFAULT_MODEL_RATIO_JSON },
  CompletionRatio: { kind: 'ratio-json', default: DEFAULT_COMPLETION_RATIO_JSON },
  GroupRatio: { kind: 'ratio-json', default: DEFAULT_GROUP_RATIO },
  CacheReadRatio: { kind: 'ratio-json', default: DEFAULT_CACHE_READ_RATIO_JSON },
  CacheWriteRatio: { kind: 'ratio-json', default: DEFAULT_CACHE_WRITE_RATIO_JSON },
  AudioRatio: { kind: 'ratio-json', default: DEFAULT_AUDIO_RATIO_JSON },
  AudioCompletionRatio: { kind: 'ratio-json', default: DEFAULT_AUDIO_COMPLETION_RATIO_JSON },
  TopUpLink: str(),
  /** Online top-up (see docs/configuration.md): the gateways, their secrets, and the prices. */
  StripeEnabled: bool(false),
  StripeSecretKey: secret,
  StripeWebhookSecret: secret,
  EPayEnabled: bool(false),
  EPayAddress: str(),
  EPayPid: str(),
  EPayKey: secret,
  TopUpCurrency: str('USD'),
  TopUpUnitPrice: str('1.00'),
  TopUpAmountOptions: str('10,20,50,100'),
  TopUpMinAmount: int(1),
  ChatLink: str(),
  AutomaticDisableChannelEnabled: bool(false),
  AutomaticEnableChannelEnabled: bool(false),
  ChannelDisableThreshold: num(5),
  LogConsumeEnabled: bool(true),
  /** Days usage logs are kept; older ones are deleted by a background job. 0: kept for ever. */
  LogRetentionDays: int(0),
  DisplayInCurrencyEnabled: bool(true),
  DisplayTokenStatEnabled: bool(true),
  /** Whether visitors (signed out) may read the price list. */
  PublicPricingEnabled: bool(false),
  /** The groups whose prices visitors see, comma-separated; empty: the default group. */
  PublicPricingGroups: str(),
  ApproximateTokenEnabled: bool(false),
  RetryTimes: int(0),
} satisfies Record<string, OptionSpec>;

export type OptionKey = keyof typeof OPTION_SPECS;
export type OptionMap = Record<OptionKey, string>;

export const OPTION_KEYS = Object.keys(OPTION_SPECS) as OptionKey[];

export const isOptionKey = (key: string): key is OptionKey => Object.hasOwn(OPTION_SPECS, key);

export const isSecretOption = (key: OptionKey): boolean => (OPTION_SPECS[key] as OptionSpec).secret === true;

export interface OptionEntry {
  key: string;
  value: string;
}

const NON_NEGATIVE_NUMBER = /^(0|[1-9]\d*)(\.\d+)?$/;
const NON_NEGATIVE_INTEGER = /^(0|[1-9]\d*)$/;

/** Parses a ratio option (a JSON object of name → number ≥ 0), or gives the reason it is not one. */
export function parseRatioJson(
  key: string,
  value: string,
): { ratios: Record<string, number> } | { error: ErrorDetail } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return { error: { code: 'option_not_json', params: { key } } };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { error: { code: 'option_not_ratio_object', params: { key } } };
  }
  for (const [name, ratio] of Object.entries(parsed)) {
    if (typeof ratio !== 'number' || !Number.isFinite(ratio) || ratio < 0) {
      return { error: { code: 'option_bad_ratio', params: { key, name } } };
    }
  }
  return { ratios: parsed as Record<string, number> };
}

/** Addresses are stored without a trailing slash. */
const ADDRESS_KEYS: readonly OptionKey[] = [
  'ServerAddress',
  'WeChatServerAddress',
  'MessagePusherAddress',
  'EPayAddress',
];

/** The form an option is stored in: what the server saves, and what the settings forms compare. */
export function normaliseOptionValue(key: OptionKey, value: string): string {
  if (ADDRESS_KEYS.includes(key)) return trimBaseUrl(value);
  if (key === 'EmailDomainWhitelist') return splitList(value.toLowerCase()).join(',');
  if (key === 'TopUpCurrency') return value.trim().toUpperCase();
  if (key === 'TopUpUnitPrice' || key === 'TopUpAmountOptions') return value.trim();
  const kind = OPTION_SPECS[key].kind;
  return kind === 'number' || kind === 'integer' ? value.trim() : value;
}

/** The one check of an option value's form, used by the server and the settings forms. Null when valid. */
export function optionValueRefusal(key: OptionKey, value: string): ErrorDetail | null {
  if (key === 'OidcIssuer') return issuerRefusal(value);
  const spec: OptionSpec = OPTION_SPECS[key];
  const special = topUpOptionRefusal(key, value);
  if (special !== undefined) return special;
  switch (spec.kind) {
    case 'boolean':
      return value === 'true' || value === 'false' ? null : { code: 'option_not_boolean', params: { key } };
    case 'integer':
      return NON_NEGATIVE_INTEGER.test(value) && Number(value) <= Number.MAX_SAFE_INTEGER
        ? null
        : { code: 'option_not_integer', params: { key } };
    case 'number':
      return NON_NEGATIVE_NUMBER.test(value) && Number.isFinite(Number(value))
        ? null
        : { code: 'option_not_number', params: { key } };
    case 'ratio-json': {
      const result = parseRatioJson(key, value);
      return 'error' in result ? result.error : null;
    }
    case 'theme':
      return (THEMES as readonly string[]).includes(value)
        ? null
        : { code: 'option_bad_theme', params: { themes: THEMES.join(', ') } };
    case 'string':
      return null;
  }
}

/** An issuer is an http(s) URL without query or fragment (OpenID Connect Discovery 1.0, section 2); empty: none. */
function issuerRefusal(value: string): ErrorDetail | null {
  if (value === '') return null;
  const plain = isHttpBaseUrl(value) && !/[?#@]/.test(value) && value.length <= 512;
  return plain ? null : { code: 'option_bad_issuer' };
}

/** The top-up options' own forms (undefined for any other key). */
function topUpOptionRefusal(key: OptionKey, value: string): ErrorDetail | null | undefined {
  switch (key) {
    case 'TopUpCurrency':
      return isTwoDecimalCurrency(value) ? null : { code: 'option_bad_currency', params: { key } };
    case 'TopUpUnitPrice': {
      const price = priceInMinorUnits(value);
      return price !== undefined && price > 0 ? null : { code: 'option_bad_price', params: { key } };
    }
    case 'TopUpAmountOptions':
      return parseAmountOptions(value) ? null : { code: 'option_bad_amounts', params: { key } };
    default:
      return undefined;
  }
}

/** The check's refusal in English; null when valid. */
export function validateOptionValue(key: OptionKey, value: string): string | null {
  const refusal = optionValueRefusal(key, value);
  return refusal && renderError(refusal.code, refusal.params);
}
