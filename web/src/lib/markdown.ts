import DOMPurify from 'dompurify';
import { marked } from 'marked';

/** Markdown (or HTML) from an administrator, rendered and sanitised for innerHTML. */
export function renderMarkdown(source: string): string {
  const html = marked.parse(source, { async: false });
  return DOMPurify.sanitize(html);
}

/** Plain HTML (footer, notices) sanitised for innerHTML. */
export function sanitizeHtml(html: string): string {
  return DOMPurify.sanitize(html);
}

/** Content that is only a link is shown in an iframe instead of as Markdown. */
export function isUrlContent(content: string): boolean {
  return /^https?:\/\/\S+$/.test(content.trim());
}
