/** Local storage keys the console uses (spec section 3), in one place. */
export const StorageKey = {
  user: 'user',
  status: 'status',
  chatLink: 'chat_link',
  aff: 'aff',
  quotaPerUnit: 'quota_per_unit',
  displayInCurrency: 'display_in_currency',
  systemName: 'system_name',
  logo: 'logo',
  footerHtml: 'footer_html',
  channelModels: 'channel_models',
  notice: 'notice',
  language: 'i18nextLng',
  /** The update check's releases address, when root overrides the built-in one. */
  releasesUrl: 'releases_url',
} as const;

export type StorageKeyName = (typeof StorageKey)[keyof typeof StorageKey];

export function readItem(key: StorageKeyName | `prompt-${string}`): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeItem(key: StorageKeyName | `prompt-${string}`, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Storage can be unavailable (private mode, quota); the console keeps working from memory.
  }
}

export function readJson<T>(key: StorageKeyName): T | null {
  const raw = readItem(key);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}
