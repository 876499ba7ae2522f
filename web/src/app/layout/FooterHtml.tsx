import { sanitizeHtml } from '../../lib/markdown';

/** The administrator's footer HTML, in a chunk of its own so that DOMPurify loads only for such a footer. */
export default function FooterHtml({ html }: { html: string }) {
  return (
    // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by DOMPurify
    <div className="rich-content" dangerouslySetInnerHTML={{ __html: sanitizeHtml(html) }} />
  );
}
