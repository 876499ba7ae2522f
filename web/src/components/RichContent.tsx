import { Box } from '@mantine/core';
import { isUrlContent, renderMarkdown } from '../lib/markdown';

/** Administrator content: a link becomes an iframe, anything else sanitised Markdown/HTML. */
export function RichContent({ content, title }: { content: string; title: string }) {
  if (isUrlContent(content)) {
    return <iframe src={content.trim()} title={title} className="content-frame" />;
  }
  return (
    <Box
      className="rich-content"
      fz="md"
      // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by DOMPurify in renderMarkdown
      dangerouslySetInnerHTML={{ __html: renderMarkdown(content) }}
    />
  );
}
