import { notifications, notificationsStore } from '@mantine/notifications';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { showError, showInfo, showNotice, showSuccess, showWarning, TOAST_DURATION } from './toast';

const last = () => {
  const { notifications: shown, queue } = notificationsStore.getState();
  return [...shown, ...queue].at(-1);
};

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

  it('go to the bottom left on wide screens and the bottom centre at 600 px or less', () => {
    setWidth(1280);
    showInfo('wide');
    expect(last()?.position).toBe('bottom-left');
    setWidth(600);
    showInfo('narrow');
    expect(last()?.position).toBe('bottom-center');
  });

  it('show three at a time, before the container has loaded too; the others wait', () => {
    for (const name of ['a', 'b', 'c', 'd', 'e']) showInfo(`Channel ${name} tested`);
    const { notifications: shown, queue } = notificationsStore.getState();
    expect(shown.map((toast) => toast.message)).toEqual([
      'Channel a tested',
      'Channel b tested',
      'Channel c tested',
    ]);
    expect(queue).toHaveLength(2);
  });

  it('show the same message of the same kind once while it is up', () => {
    showError('Channel test failed');
    showError('Channel test failed');
    showInfo('Channel test failed');
    const shown = notificationsStore.getState();
    expect([...shown.notifications, ...shown.queue].map((toast) => [toast.color, toast.message])).toEqual([
      ['red', 'Channel test failed'],
      ['blue', 'Channel test failed'],
    ]);
  });
});
