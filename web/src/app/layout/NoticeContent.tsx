import { renderMarkdown } from '../../lib/markdown';

/** The notice's Markdown, in a chunk of its own so the Markdown renderer loads only when there is one. */
export default function NoticeContent({ markdown }: { markdown: string }) {
  return (
    <div
      className="notice-html"
      // biome-ignore lint/security/noDangerouslySetInnerHtml: renderMarkdown sanitises with DOMPurify
      dangerouslySetInnerHTML={{ __html: renderMarkdown(markdown) }}
    />
  );
}
