import DOMPurify from 'dompurify';

/**
 * The tags and attributes rich text (product and category descriptions, CMS text, slide
 * notes) may hold: the same allow-list the shop applies when the text is written
 * (storefront-proxy `rich_text.rs`). The server is the first wall; this is the second, for
 * text of a real Shopware or of data written before the server sanitised it. No
 * `<style>`, `<form>`, `<svg>`, `<iframe>`, no `style` or `class`, no event handlers, and
 * no script links (DOMPurify's URI rule).
 */
const TAGS = [
  'p', 'br', 'hr', 'strong', 'b', 'em', 'i', 'u', 's', 'sub', 'sup', 'small', 'mark', 'span', 'div',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'blockquote', 'pre', 'code', 'a', 'img',
  'table', 'thead', 'tbody', 'tr', 'th', 'td', 'caption',
];
const ATTRIBUTES = ['href', 'title', 'target', 'rel', 'src', 'alt', 'width', 'height', 'colspan', 'rowspan'];

/** `html` with only the allowed tags, attributes and link schemes. */
export function sanitizeRichText(html: string): string {
  return DOMPurify.sanitize(html, { ALLOWED_TAGS: TAGS, ALLOWED_ATTR: ATTRIBUTES });
}
