import { notifications, notificationsStore } from '@mantine/notifications';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { showError, showInfo, showNotice, showSuccess, showWarning, TOAST_DURATION } from './toast';

const last = () => notificationsStore.getState().notifications.at(-1);

function setWidth(width: number) {
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: width });
}

beforeEach(() => notifications.clean());
afterEach(() => setWidth(1024));

describe('toasts', () => {
  it('use the durations of the spec', () => {
    expect(TOAST_DURATION).toEqual({ success: 1500, info: 3000, error: 5000, warning: 10000, notice: 20000 });
    showSuccess('ok');
    expect(last()?.autoClose).toBe(1500);
    showInfo('fyi');
    expect(last()?.autoClose).toBe(3000);
    showError('bad');
    expect(last()?.autoClose).toBe(5000);
    showWarning('careful');
    expect(last()?.autoClose).toBe(10000);
  });

  it('keeps notices until they are dismissed', () => {
    showNotice('maintenance tonight');
    expect(last()?.autoClose).toBe(false);
  });

  it('go to the bottom right on wide screens and the top centre at 600 px or less', () => {
    setWidth(1280);
    showInfo('wide');
    expect(last()?.position).toBe('bottom-right');
    setWidth(600);
    showInfo('narrow');
    expect(last()?.position).toBe('top-center');
  });
});
