import type { ServerStatus } from '@switchyard/contract/status';
import { i18n } from '../i18n/i18n';
import { api, configureApiClient } from '../lib/api-client';
import { renderMarkdown } from '../lib/markdown';
import { applyBranding, restoreServerStatus, saveServerStatus } from '../lib/server-status';
import { restoreSession } from '../lib/session';
import { readItem, StorageKey, writeItem } from '../lib/storage';
import { showError, showNotice } from '../lib/toast';

/** GET /api/status into memory and local storage; title and icon follow it. */
export async function loadServerStatus(): Promise<ServerStatus | null> {
  try {
    const { data } = await api.get<ServerStatus>('/api/status', { silent: true });
    if (!data) throw new Error('empty status');
    saveServerStatus(data);
    applyBranding();
    return data;
  } catch {
    showError(i18n.t('errors.serverUnreachable'));
    return null;
  }
}

/** The administrator's notice, shown once per new text as a notice toast. */
export async function showNoticeOnce(): Promise<void> {
  try {
    const { data } = await api.get<string>('/api/notice', { silent: true });
    if (!data || data === readItem(StorageKey.notice)) return;
    showNotice(renderMarkdown(data), { html: true, title: i18n.t('common.noticeTitle') });
    writeItem(StorageKey.notice, data);
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
    if (status) void showNoticeOnce();
  });
}
