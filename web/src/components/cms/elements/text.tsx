import { sanitizeRichText } from '@/lib/rich-text';
import { configValue } from '../mapping';
import type { CmsElementProps } from '../context';

/** Sanitises shop HTML with the rich-text allow-list (lib/rich-text.ts). */
export function sanitizeHtml(html: string): string {
  return sanitizeRichText(html);
}

/** A text element: the shop's HTML, sanitised. */
export function CmsText({ slot }: CmsElementProps) {
  const html = (slot.data as { content?: string } | undefined)?.content ?? configValue<string>(slot, 'content') ?? '';
  const align = configValue<string>(slot, 'verticalAlign');
  return <div className="rich-text" data-align={align || undefined} dangerouslySetInnerHTML={{ __html: sanitizeHtml(html) }} />;
}
