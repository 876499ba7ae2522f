import { type NotificationData, notifications } from '@mantine/notifications';
import type { ReactNode } from 'react';
import { sanitizeHtml } from './markdown';

/** How long each kind of toast stays, in ms (spec section 9). Notices stay until dismissed. */
export const TOAST_DURATION = {
  success: 1500,
  info: 3000,
  error: 5000,
  warning: 10000,
  notice: 20000,
} as const;

/** Phones get toasts at the top centre. */
export const NARROW_SCREEN_MAX_WIDTH = 600;

export type ToastKind = keyof typeof TOAST_DURATION;

const COLORS: Record<ToastKind, string> = {
  success: 'teal',
  info: 'blue',
  error: 'red',
  warning: 'yellow',
  notice: 'indigo',
};

function show(kind: ToastKind, message: ReactNode, extra: Partial<NotificationData> = {}): string {
  const narrow = typeof window !== 'undefined' && window.innerWidth <= NARROW_SCREEN_MAX_WIDTH;
  return notifications.show({
    message,
    color: COLORS[kind],
    autoClose: kind === 'notice' ? false : TOAST_DURATION[kind],
    position: narrow ? 'top-center' : 'top-right',
    'data-toast': kind,
    ...extra,
  });
}

export const showSuccess = (message: string): string => show('success', message);
export const showInfo = (message: string): string => show('info', message);
export const showError = (message: string): string => show('error', message);
export const showWarning = (message: string): string => show('warning', message);

/** A notice stays until the reader closes it; `html` content is sanitised first. */
export function showNotice(message: string, options: { html?: boolean; title?: string } = {}): string {
  const body = options.html ? (
    // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by DOMPurify
    <div className="notice-html" dangerouslySetInnerHTML={{ __html: sanitizeHtml(message) }} />
  ) : (
    message
  );
  return show('notice', body, options.title ? { title: options.title } : {});
}
