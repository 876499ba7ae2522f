import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { chinesePages } from '../i18n/chinese-pages';
import { chineseSignIn } from '../i18n/chinese-sign-in';
import { englishPages } from '../i18n/english-pages';
import { englishSignIn } from '../i18n/english-sign-in';
import { i18n } from '../i18n/i18n';

// The console loads its messages in parts, one language at a time; tests have all of them.
i18n.addResourceBundle('en', 'translation', { ...englishSignIn, ...englishPages });
i18n.addResourceBundle('zh', 'translation', { ...chineseSignIn, ...chinesePages });

// Mantine reads media queries; jsdom has none.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

class NoopResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver ??= NoopResizeObserver as unknown as typeof ResizeObserver;

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});
