import type { ServerStatus } from '@switchyard/contract/status';
import { currentLanguage, i18n, loadMessages } from '../i18n/i18n';
import { api, configureApiClient } from '../lib/api-client';
import { applyBranding, restoreServerStatus, saveServerStatus } from '../lib/server-status';
import { restoreSession } from '../lib/session';
import { offerNotice } from '../lib/site-notice';
import { showError } from '../lib/toast';

/** GET /api/status into memory and local storage; title and icon follow it. */
export async function loadServerStatus(): Promise<ServerStatus | null> {
  try {
    const { data } = await api.get<ServerStatus>('/api/status', { silent: true });
    if (!data) throw new Error('empty status');
    saveServerStatus(data);
    applyBranding();
    return data;
  } catch {
    // A quick failure can come before the messages (loading alongside) are in.
    await loadMessages(currentLanguage()).catch(() => undefined);
    showError(i18n.t('errors.serverUnreachable'));
    return null;
  }
}

/** The administrator's notice, offered as a banner until this browser dismisses that text. */
export async function loadNotice(): Promise<void> {
  try {
    const { data } = await api.get<string>('/api/notice', { silent: true });
    offerNotice(data ?? '');
  } catch {
    // The notice is optional; a missing endpoint must not disturb start-up.
  }
}

export function startConsole(): void {
  // Empty means same origin; a build may point the console at another server.
  configureApiClient({ baseUrl: import.meta.env.VITE_SERVER_URL ?? '' });
  restoreSession();
  restoreServerStatus();
  applyBranding();
  void loadServerStatus().then((status) => {
    if (status) void loadNotice();
  });
}
