import { describe, expect, it } from 'vitest';
import { isUrlContent, renderMarkdown, sanitizeHtml } from './markdown';

/** The rendered HTML as a detached element, to ask it about its nodes rather than its text. */
function parse(html: string): HTMLElement {
  const root = document.createElement('div');
  root.innerHTML = html;
  return root;
}

describe('renderMarkdown', () => {
  it('renders Markdown to HTML', () => {
    const root = parse(
      renderMarkdown('# Welcome\n\nSome **bold** text and a [link](https://example.com).\n\n- one\n- two'),
    );
    expect(root.querySelector('h1')?.textContent).toBe('Welcome');
    expect(root.querySelector('strong')?.textContent).toBe('bold');
    expect(root.querySelector('a')?.getAttribute('href')).toBe('https://example.com');
    expect(root.querySelectorAll('li')).toHaveLength(2);
  });

  it('keeps harmless HTML written by the administrator', () => {
    const root = parse(
      renderMarkdown('<p class="lead">Hello <em>there</em></p><img src="/logo.png" alt="logo">'),
    );
    expect(root.querySelector('p.lead em')?.textContent).toBe('there');
    expect(root.querySelector('img')?.getAttribute('src')).toBe('/logo.png');
  });

  it('strips scripts, event handlers and javascript: links', () => {
    const html = renderMarkdown(
      [
        '# Home',
        '<script>window.pwned = true</script>',
        '<img src="x" onerror="window.pwned = true">',
        '<div onclick="window.pwned = true" onmouseover="alert(1)">hover</div>',
        '<a href="javascript:alert(1)">click</a>',
        '[md link](javascript:alert(1))',
        '<svg><script>alert(1)</script></svg>',
      ].join('\n\n'),
    );
    const root = parse(html);
    expect(root.querySelector('script')).toBeNull();
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/\son\w+=/i);
    expect(html).not.toContain('javascript:');
    expect(root.querySelector('img')?.getAttribute('src')).toBe('x');
    expect(root.textContent).toContain('hover');
    expect(root.querySelector('h1')?.textContent).toBe('Home');
  });
});

describe('sanitizeHtml', () => {
  it('keeps footer links and drops their handlers', () => {
    const root = parse(
      sanitizeHtml('<a href="https://example.com" onclick="steal()">Powered by us</a><script>x()</script>'),
    );
    expect(root.querySelector('a')?.getAttribute('href')).toBe('https://example.com');
    expect(root.querySelector('a')?.hasAttribute('onclick')).toBe(false);
    expect(root.querySelector('script')).toBeNull();
  });
});

describe('isUrlContent', () => {
  it('is true for content that is only an http(s) link, surrounding blanks allowed', () => {
    expect(isUrlContent('https://example.com/about')).toBe(true);
    expect(isUrlContent('http://example.com')).toBe(true);
    expect(isUrlContent('  https://example.com/page?x=1#top\n')).toBe(true);
  });

  it('is false for Markdown, text around a link, other schemes and empty content', () => {
    expect(isUrlContent('See https://example.com')).toBe(false);
    expect(isUrlContent('https://example.com and more')).toBe(false);
    expect(isUrlContent('[about](https://example.com)')).toBe(false);
    expect(isUrlContent('ftp://example.com')).toBe(false);
    expect(isUrlContent('javascript:alert(1)')).toBe(false);
    expect(isUrlContent('example.com')).toBe(false);
    expect(isUrlContent('')).toBe(false);
  });
});
