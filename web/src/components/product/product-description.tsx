import type { Schemas } from '@shopware/api-client/store-api-types';
import DOMPurify from 'dompurify';

/** The product's description, sanitised HTML. */
export function ProductDescription({ product }: { product: Schemas['Product'] }) {
  const html = product.translated?.description || product.description;
  if (!html) return null;
  return <div className="rich-text" dangerouslySetInnerHTML={{ __html: DOMPurify.sanitize(html) }} />;
}
