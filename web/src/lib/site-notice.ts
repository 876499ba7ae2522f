import { readItem, StorageKey, writeItem } from './storage';
import { createStore, useStore } from './store';

/** The administrator's notice (Markdown) while it waits to be dismissed; null when there is none to show. */
const noticeStore = createStore<string | null>(null);

/** Offer the notice unless this browser already dismissed this very text. */
export function offerNotice(text: string): void {
  noticeStore.set(text && text !== readItem(StorageKey.notice) ? text : null);
}

/** Closing the banner remembers the text, so it comes back only when the administrator changes it. */
export function dismissNotice(): void {
  const text = noticeStore.get();
  if (text) writeItem(StorageKey.notice, text);
  noticeStore.set(null);
}

export function useSiteNotice(): string | null {
  return useStore(noticeStore);
}
