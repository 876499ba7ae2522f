import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { detectLanguage, i18n } from '../i18n/i18n';
import { PageLoading } from './PageLoading';

function renderIn(language: 'zh' | 'en', page?: string) {
  void i18n.changeLanguage(language);
  return render(
    <I18nextProvider i18n={i18n}>
      <MantineProvider>
        <PageLoading page={page} />
      </MantineProvider>
    </I18nextProvider>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('loading placeholder', () => {
  it('reads 加载{page}中... in Chinese with the default label 页面', () => {
    renderIn('zh');
    expect(screen.getByText('加载页面中...')).toBeTruthy();
  });

  it("reads 'Loading {page}...' in English", () => {
    renderIn('en', 'users');
    expect(screen.getByText('Loading users...')).toBeTruthy();
  });
});

describe('language choice', () => {
  it('prefers the remembered language', () => {
    window.localStorage.setItem('i18nextLng', 'en');
    vi.stubGlobal('navigator', { language: 'zh-CN' });
    expect(detectLanguage()).toBe('en');
  });

  it('defaults from the browser language', () => {
    vi.stubGlobal('navigator', { language: 'zh-TW' });
    expect(detectLanguage()).toBe('zh');
    vi.stubGlobal('navigator', { language: 'de-DE' });
    expect(detectLanguage()).toBe('en');
  });
});
