import type { Schemas } from '@shopware/api-client/store-api-types';
import { sanitizeRichText } from '@/lib/rich-text';

/** The product's description, sanitised with the rich-text allow-list. */
export function ProductDescription({ product }: { product: Schemas['Product'] }) {
  const html = product.translated?.description || product.description;
  if (!html) return null;
  return <div className="rich-text" dangerouslySetInnerHTML={{ __html: sanitizeRichText(html) }} />;
}
