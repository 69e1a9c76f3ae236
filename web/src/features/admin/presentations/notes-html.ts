import DOMPurify from 'dompurify';

/** What a slide note may hold: paragraphs, bold, italic, lists and links (as the rich-text editor makes them). */
const TAGS = ['p', 'br', 'strong', 'b', 'em', 'i', 'ul', 'ol', 'li', 'a'];
const ATTRIBUTES = ['href', 'target', 'rel'];

/**
 * A note's HTML as it is stored: sanitised to the tags the editor offers (scripts,
 * styles, event handlers and `javascript:` links removed); an editor with nothing typed
 * (`<p></p>`) is an empty note.
 */
export function noteHtmlToStore(html: string): string {
  const clean = DOMPurify.sanitize(html, { ALLOWED_TAGS: TAGS, ALLOWED_ATTR: ATTRIBUTES });
  const text = clean.replace(/<[^>]*>/g, '').replace(/&nbsp;/g, ' ').trim();
  return text === '' ? '' : clean;
}

/** A link address as typed: `https://` added to a bare host; only http(s) and mailto links. Empty when it is none of those. */
export function linkAddress(typed: string): string {
  const value = typed.trim();
  if (value === '') return '';
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(value) ? value : `https://${value}`;
  try {
    const url = new URL(withScheme);
    return ['http:', 'https:', 'mailto:'].includes(url.protocol) ? url.href : '';
  } catch {
    return '';
  }
}
