import { trimBaseUrl } from '@switchyard/contract/base-url';
import { DEFAULT_SERVER_ADDRESS, PRODUCT_NAME, type ServerStatus } from '@switchyard/contract/status';
import { readItem, readJson, StorageKey, writeItem } from './storage';
import { createStore, useStore } from './store';

const statusStore = createStore<ServerStatus | null>(null);

export const DEFAULT_LOGO = '/logo.png';

/** Start-up: show what the last visit learned until the fresh status arrives. */
export function restoreServerStatus(): void {
  statusStore.set(readJson<ServerStatus>(StorageKey.status));
}

/** Keep GET /api/status in memory and in the local storage keys of spec section 3. */
export function saveServerStatus(status: ServerStatus): void {
  writeItem(StorageKey.status, JSON.stringify(status));
  writeItem(StorageKey.systemName, status.system_name ?? '');
  writeItem(StorageKey.logo, status.logo ?? '');
  writeItem(StorageKey.footerHtml, status.footer_html ?? '');
  writeItem(StorageKey.quotaPerUnit, String(status.quota_per_unit));
  writeItem(StorageKey.displayInCurrency, String(status.display_in_currency));
  writeItem(StorageKey.chatLink, status.chat_link ? status.chat_link : null);
  statusStore.set(status);
}

export function useServerStatus(): ServerStatus | null {
  return useStore(statusStore);
}

/**
 * The gateway's public address that links are built on: the ServerAddress option, else (unset, or
 * the default one-api reports while unset) the console's own origin, as one-api's console does.
 */
export function publicAddress(configured: string | undefined, origin = window.location.origin): string {
  const address = trimBaseUrl(configured ?? '');
  return address && address !== DEFAULT_SERVER_ADDRESS ? address : origin;
}

/** The public address as the server reports it (see publicAddress). */
export function usePublicAddress(): string {
  return publicAddress(useServerStatus()?.server_address);
}

export function getSystemName(): string {
  return readItem(StorageKey.systemName) || PRODUCT_NAME;
}

export function getLogo(): string {
  return readItem(StorageKey.logo) || DEFAULT_LOGO;
}

/** Title and favicon follow the configured system name and logo. */
export function applyBranding(doc: Document = document): void {
  doc.title = getSystemName();
  let icon = doc.querySelector<HTMLLinkElement>("link[rel~='icon']");
  if (!icon) {
    icon = doc.createElement('link');
    icon.rel = 'icon';
    doc.head.appendChild(icon);
  }
  icon.href = getLogo();
}
