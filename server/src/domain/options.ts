import {
  isOptionKey,
  isSecretOption,
  normaliseOptionValue,
  OPTION_KEYS,
  OPTION_SPECS,
  type OptionEntry,
  type OptionKey,
  type OptionMap,
  optionValueRefusal,
  parseRatioJson,
} from '@switchyard/contract/options';
import type { ErrorDetail } from '@switchyard/contract/render-error';
import type { Sql } from '../db/connect';
import { loadOptionRows, saveOption } from '../db/repos/options';
import { SerialReload } from '../serial-reload';
import { DomainError, InputError } from './errors';

type RatioKey =
  | 'ModelRatio'
  | 'CompletionRatio'
  | 'GroupRatio'
  | 'CacheReadRatio'
  | 'CacheWriteRatio'
  | 'AudioRatio'
  | 'AudioCompletionRatio';
const RATIO_KEYS: RatioKey[] = [
  'ModelRatio',
  'CompletionRatio',
  'GroupRatio',
  'CacheReadRatio',
  'CacheWriteRatio',
  'AudioRatio',
  'AudioCompletionRatio',
];

function defaults(): OptionMap {
  return Object.fromEntries(OPTION_KEYS.map((key) => [key, OPTION_SPECS[key].default])) as OptionMap;
}

/** Rules that tie one option to another: a feature can only be switched on once it is configured. */
function enablingRequirement(key: OptionKey, value: string, current: OptionMap): ErrorDetail | null {
  if (value !== 'true') return null;
  switch (key) {
    case 'GitHubOAuthEnabled':
      return current.GitHubClientId ? null : { code: 'github_login_needs_client' };
    case 'OidcEnabled':
      return current.OidcIssuer && current.OidcClientId ? null : { code: 'oidc_login_needs_issuer' };
    case 'EmailDomainRestrictionEnabled':
      return current.EmailDomainWhitelist ? null : { code: 'email_whitelist_needed' };
    case 'WeChatAuthEnabled':
      return current.WeChatServerAddress ? null : { code: 'wechat_login_needs_address' };
    case 'StripeEnabled':
      return current.StripeSecretKey && current.StripeWebhookSecret ? null : { code: 'stripe_needs_keys' };
    case 'EPayEnabled':
      return current.EPayAddress && current.EPayPid && current.EPayKey
        ? null
        : { code: 'epay_needs_settings' };
    case 'TurnstileCheckEnabled':
      return current.TurnstileSiteKey ? null : { code: 'turnstile_needs_site_key' };
    default:
      return null;
  }
}

/**
 * The system options, held in memory and written through to the database.
 * A change applies at once in this process; other processes pick it up on their next reload.
 */
export class OptionsStore {
  #values: OptionMap = defaults();
  /** Replaced whole whenever a ratio option changes: one reference says whether prices are current. */
  #ratios = new Map<RatioKey, Record<string, number>>();
  /** Counts this process's saved changes, so that a reload never puts back an older value. */
  #saved = 0;
  /** One read at a time: another process's change heard twice must not apply the older read last. */
  readonly #reads = new SerialReload(() => this.#read());

  constructor(
    private readonly db: Sql,
    /** Told after this process saved an option, so other processes reload. */
    private readonly onChanged: () => void = () => {},
  ) {
    this.#parseRatios();
  }

  /** Resolves once the options read after this call are in force. */
  reload(): Promise<void> {
    this.#reads.invalidate();
    return this.#reads.fresh();
  }

  async #read(): Promise<void> {
    const saved = this.#saved;
    const stored = await loadOptionRows(this.db);
    // A change this process saved while the rows were read may be missing from them: read again.
    if (saved !== this.#saved) return this.#read();
    const values = defaults();
    for (const [key, value] of stored) {
      if (isOptionKey(key) && optionValueRefusal(key, value) === null) values[key] = value;
    }
    this.#values = values;
    this.#parseRatios();
  }

  get<K extends OptionKey>(key: K): string {
    return this.#values[key];
  }

  bool(key: OptionKey): boolean {
    return this.#values[key] === 'true';
  }

  number(key: OptionKey): number {
    return Number(this.#values[key]);
  }

  ratios(key: RatioKey): Record<string, number> {
    return this.#ratios.get(key) ?? {};
  }

  /** Every ratio table; a different object after any of them changed (prices cached against it). */
  ratioTables(): ReadonlyMap<RatioKey, Record<string, number>> {
    return this.#ratios;
  }

  groups(): string[] {
    return Object.keys(this.ratios('GroupRatio'));
  }

  /** Every option that may be shown to root: secrets are left out. */
  publicEntries(): OptionEntry[] {
    return OPTION_KEYS.filter((key) => !isSecretOption(key)).map((key) => ({
      key,
      value: this.#values[key],
    }));
  }

  async update(key: string, rawValue: string): Promise<void> {
    if (!isOptionKey(key)) throw new InputError('option_unknown', { key });
    const value = normaliseOptionValue(key, rawValue);
    const problem = optionValueRefusal(key, value) ?? enablingRequirement(key, value, this.#values);
    if (problem) throw DomainError.of(problem);
    await saveOption(this.db, key, value);
    this.#values = { ...this.#values, [key]: value };
    this.#saved += 1;
    if ((RATIO_KEYS as string[]).includes(key)) this.#parseRatios();
    this.onChanged();
  }

  #parseRatios(): void {
    const ratios = new Map<RatioKey, Record<string, number>>();
    for (const key of RATIO_KEYS) {
      const result = parseRatioJson(key, this.#values[key]);
      ratios.set(key, 'ratios' in result ? result.ratios : {});
    }
    this.#ratios = ratios;
  }
}
