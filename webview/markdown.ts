import DOMPurify from 'dompurify';
import { Marked } from 'marked';

/**
 * Card content, comments and log text are Markdown written by anyone with access to the files.
 * They are rendered to HTML by marked and then sanitized by DOMPurify, so no script, event
 * handler, style or frame from that text ever runs or loads; the page's Content-Security-Policy
 * (no inline scripts) is the second wall.
 */
const markdown = new Marked({ gfm: true, breaks: true, async: false });

const purify = DOMPurify(window);
purify.addHook('afterSanitizeAttributes', (node) => {
  // Links open outside the board and cannot reach back into it.
  if (node.tagName === 'A' && node.getAttribute('href')) {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
});

const OPTIONS = {
  FORBID_TAGS: ['style', 'form', 'button', 'textarea', 'select', 'iframe', 'object', 'embed', 'svg', 'math'],
  FORBID_ATTR: ['style', 'class', 'id'],
  ALLOW_DATA_ATTR: false,
};

export function renderMarkdown(text: string): string {
  const html = markdown.parse(text) as string;
  return purify.sanitize(html, OPTIONS);
}

/** The content without its first `#` heading (the card title is shown on its own). */
export function bodyWithoutTitle(content: string): string {
  return content.replace(/^\s*#[ \t]+.*(\r?\n|$)/, '');
}
