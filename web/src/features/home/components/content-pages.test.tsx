import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n/i18n';
import { jsonResponse, renderAt } from '../../../test/render';
import { AboutPage } from './AboutPage';
import { HomePage } from './HomePage';

const HOSTILE = [
  '# Welcome aboard',
  '<script>window.pwned = true</script>',
  '<img src="/banner.png" alt="banner" onerror="window.pwned = true">',
  '<p onclick="window.pwned = true">Read the <a href="javascript:window.pwned = true">guide</a></p>',
].join('\n\n');

/** GET /api/home_page_content and /api/about both answer `content`. */
function serve(content: string) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => jsonResponse({ success: true, message: '', data: content })),
  );
}

beforeEach(async () => {
  await i18n.changeLanguage('en');
});
afterEach(() => {
  vi.unstubAllGlobals();
  delete (window as { pwned?: boolean }).pwned;
});

describe.each([
  ['HomePageContent', '/', <HomePage key="home" />],
  ['About', '/about', <AboutPage key="about" />],
])('%s from the administrator', (_name, path, page) => {
  it('is shown as Markdown with scripts and event handlers stripped', async () => {
    serve(HOSTILE);
    renderAt(path, path, page);
    await screen.findByRole('heading', { name: 'Welcome aboard' });
    const content = document.querySelector('.rich-content');
    expect(content).not.toBeNull();
    expect(content?.querySelector('script')).toBeNull();
    const withHandlers = [...(content?.querySelectorAll('*') ?? [])].filter((node) =>
      node.getAttributeNames().some((name) => name.startsWith('on')),
    );
    expect(withHandlers).toEqual([]);
    expect(screen.getByRole('img', { name: 'banner' }).getAttribute('src')).toBe('/banner.png');
    expect(screen.getByText('guide').getAttribute('href')).toBeNull();
    expect((window as { pwned?: boolean }).pwned).toBeUndefined();
  });

  it('is shown in a frame when it is only a link', async () => {
    serve(' https://example.com/page ');
    renderAt(path, path, page);
    await waitFor(() => expect(document.querySelector('iframe')).not.toBeNull());
    expect(document.querySelector('iframe')?.getAttribute('src')).toBe('https://example.com/page');
    expect(document.querySelector('.rich-content')).toBeNull();
  });
});
