import type { Schemas } from '@shopware/api-client/store-api-types';

type Deliverability = Pick<Schemas['Product'], 'available' | 'isCloseout' | 'availableStock' | 'stock'>;

/**
 * Whether a product of a slide can no longer be bought: the shop says it is not
 * available, or it is a closeout (sold only from stock) with nothing left in stock.
 */
export function isSoldOut(product: Deliverability): boolean {
  if (product.available === false) return true;
  return !!product.isCloseout && (product.availableStock ?? product.stock ?? 1) <= 0;
}
