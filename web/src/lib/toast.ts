import { type NotificationData, notifications, notificationsStore } from '@mantine/notifications';

/** How long each kind of toast stays, in ms (spec section 9). Notices stay until dismissed. */
export const TOAST_DURATION = {
  success: 1500,
  info: 3000,
  error: 5000,
  warning: 10000,
  notice: 20000,
} as const;

/**
 * Where toasts go: at the bottom, clear of the header, the page title and its main button, and on wider
 * screens at the left, clear of the lists' Actions column (their last one). Phones (600 px or less)
 * get them at the bottom centre.
 */
export const NARROW_SCREEN_MAX_WIDTH = 600;
export const TOAST_POSITION = { wide: 'bottom-left', narrow: 'bottom-center' } as const;

/** At most this many toasts show at once; the others wait their turn. */
export const TOAST_LIMIT = 3;

// Set here, not only on Mantine's container: that loads with the first toasts, after they are placed.
notificationsStore.updateState((state) => ({
  ...state,
  limit: TOAST_LIMIT,
  defaultPosition: TOAST_POSITION.wide,
}));

export type ToastKind = keyof typeof TOAST_DURATION;

const COLORS: Record<ToastKind, string> = {
  success: 'teal',
  info: 'blue',
  error: 'red',
  warning: 'yellow',
  notice: 'indigo',
};

/** A toast; the same message of the same kind, while one is shown or waiting, is not shown twice. */
function show(kind: ToastKind, message: string, extra: Partial<NotificationData> = {}): string {
  const narrow = typeof window !== 'undefined' && window.innerWidth <= NARROW_SCREEN_MAX_WIDTH;
  return notifications.show({
    id: `${kind}:${String(extra.title ?? '')}:${message}`,
    message,
    color: COLORS[kind],
    autoClose: kind === 'notice' ? false : TOAST_DURATION[kind],
    position: narrow ? TOAST_POSITION.narrow : TOAST_POSITION.wide,
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
