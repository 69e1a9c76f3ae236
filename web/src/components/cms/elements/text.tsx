import DOMPurify from 'dompurify';
import { configValue } from '../mapping';
import type { CmsElementProps } from '../context';

/** Sanitises shop HTML: no scripts, no event handlers, no javascript: URLs. */
export function sanitizeHtml(html: string): string {
  return DOMPurify.sanitize(html, { ADD_ATTR: ['target'] });
}

/** A text element: the shop's HTML, sanitised. */
export function CmsText({ slot }: CmsElementProps) {
  const html = (slot.data as { content?: string } | undefined)?.content ?? configValue<string>(slot, 'content') ?? '';
  const align = configValue<string>(slot, 'verticalAlign');
  return <div className="rich-text" data-align={align || undefined} dangerouslySetInnerHTML={{ __html: sanitizeHtml(html) }} />;
}
