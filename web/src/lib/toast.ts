import { type NotificationData, notifications } from '@mantine/notifications';

/** How long each kind of toast stays, in ms (spec section 9). Notices stay until dismissed. */
export const TOAST_DURATION = {
  success: 1500,
  info: 3000,
  error: 5000,
  warning: 10000,
  notice: 20000,
} as const;

/** Phones get toasts at the top centre (below the header); wider screens at the bottom right, clear of
 * the header's menus and the page-header buttons. */
export const NARROW_SCREEN_MAX_WIDTH = 600;

export type ToastKind = keyof typeof TOAST_DURATION;

const COLORS: Record<ToastKind, string> = {
  success: 'teal',
  info: 'blue',
  error: 'red',
  warning: 'yellow',
  notice: 'indigo',
};

function show(kind: ToastKind, message: string, extra: Partial<NotificationData> = {}): string {
  const narrow = typeof window !== 'undefined' && window.innerWidth <= NARROW_SCREEN_MAX_WIDTH;
  return notifications.show({
    message,
    color: COLORS[kind],
    autoClose: kind === 'notice' ? false : TOAST_DURATION[kind],
    position: narrow ? 'top-center' : 'bottom-right',
    'data-toast': kind,
    ...extra,
  });
}

export const showSuccess = (message: string): string => show('success', message);
export const showInfo = (message: string): string => show('info', message);
export const showError = (message: string): string => show('error', message);
export const showWarning = (message: string): string => show('warning', message);

/** A notice stays until the reader closes it. */
export const showNotice = (message: string, title?: string): string =>
  show('notice', message, title ? { title } : {});
