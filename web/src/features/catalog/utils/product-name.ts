import type { Product } from '../api/catalog';

/** A product's name in the shop language (the translation, else the stored name). */
export const productName = (product: Pick<Product, 'name' | 'translated'>) => product.translated?.name || product.name;
