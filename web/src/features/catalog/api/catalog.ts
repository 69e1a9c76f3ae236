import type { Schemas } from '@shopware/api-client/store-api-types';
import { shopClient } from '@/lib/shop/session';
import type { ListingCriteria } from '../utils/listing-query';

export type Product = Schemas['Product'];
export type ListingResult = Schemas['ProductListingResult'];
export type PropertyGroup = Schemas['PropertyGroup'];
export type ProductReview = Schemas['ProductReview'];
export type CrossSellingElement = Schemas['CrossSellingElement'];

export interface ProductDetail {
  product: Product;
  configurator: PropertyGroup[];
}

/** The products of a category with filters, sorting and paging: `POST /product-listing/{categoryId}`. */
export async function getCategoryListing(categoryId: string, criteria: ListingCriteria): Promise<ListingResult> {
  const { data } = await shopClient().invoke('readProductListing post /product-listing/{categoryId}', {
    pathParams: { categoryId },
    body: criteria,
  });
  return data;
}

/** A product with its configurator (option groups): `POST /product/{id}`. */
export async function getProductDetail(productId: string): Promise<ProductDetail> {
  const { data } = await shopClient().invoke('readProductDetail post /product/{productId}', {
    pathParams: { productId },
    body: {
      associations: {
        media: {},
        manufacturer: {},
        properties: { associations: { group: {} } },
        options: { associations: { group: {} } },
        deliveryTime: {},
        unit: {},
        seoUrls: {},
      },
    },
  });
  return { product: data.product, configurator: data.configurator ?? [] };
}

/** The variants of a parent product, enough to map option combinations to variant ids. */
export async function getVariants(parentId: string): Promise<Pick<Product, 'id' | 'optionIds' | 'seoUrls' | 'available'>[]> {
  const { data } = await shopClient().invoke('readProduct post /product', {
    body: { filter: [{ type: 'equals', field: 'parentId', value: parentId }], limit: 100 } as never,
  });
  return data.elements ?? [];
}

/** Products by id, in the order asked for (missing ones left out). */
export async function getProducts(ids: string[]): Promise<Product[]> {
  if (ids.length === 0) return [];
  const { data } = await shopClient().invoke('readProduct post /product', {
    body: { ids, limit: ids.length, associations: { cover: {}, seoUrls: {} } },
  });
  const byId = new Map((data.elements ?? []).map((product) => [product.id, product]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export async function getReviews(productId: string, limit = 10): Promise<{ elements: ProductReview[]; total: number }> {
  const { data } = await shopClient().invoke('readProductReviews post /product/{productId}/reviews', {
    pathParams: { productId },
    body: { limit, 'total-count-mode': 'exact' } as never,
  });
  return { elements: data.elements ?? [], total: data.total ?? data.elements?.length ?? 0 };
}

export async function getCrossSellings(productId: string): Promise<CrossSellingElement[]> {
  const { data } = await shopClient().invoke('readProductCrossSellings post /product/{productId}/cross-selling', {
    pathParams: { productId },
  });
  return Array.isArray(data) ? data : [];
}
