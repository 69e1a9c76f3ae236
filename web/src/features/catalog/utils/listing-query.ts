import type { Schemas } from '@shopware/api-client/store-api-types';

export type ListingCriteria = Schemas['ProductListingCriteria'];

/** Products per page unless the URL says otherwise (spec section 9). */
export const DEFAULT_LIMIT = 10;

/** Arrays in query strings are joined with '|' (spec section 9). */
export const LIST_SEPARATOR = '|';

const LIST_KEYS = ['properties', 'manufacturer'] as const;
type ListKey = (typeof LIST_KEYS)[number];

export interface ListingQuery {
  order?: string;
  p: number;
  limit: number;
  properties: string[];
  manufacturer: string[];
  minPrice?: number;
  maxPrice?: number;
  rating?: number;
  shippingFree: boolean;
}

const positiveNumber = (value: string | null): number | undefined => {
  if (value === null || value.trim() === '') return undefined;
  const number = Number(value);
  return Number.isFinite(number) && number >= 0 ? number : undefined;
};

const list = (value: string | null): string[] =>
  (value ?? '')
    .split(LIST_SEPARATOR)
    .map((entry) => entry.trim())
    .filter(Boolean);

/** Reads the listing state from the URL's query string. */
export function parseListingQuery(params: URLSearchParams): ListingQuery {
  const page = Math.floor(positiveNumber(params.get('p')) ?? 1);
  const limit = Math.floor(positiveNumber(params.get('limit')) ?? DEFAULT_LIMIT);
  const rating = positiveNumber(params.get('rating'));
  return {
    order: params.get('order') || undefined,
    p: page >= 1 ? page : 1,
    limit: limit >= 1 ? limit : DEFAULT_LIMIT,
    properties: list(params.get('properties')),
    manufacturer: list(params.get('manufacturer')),
    minPrice: positiveNumber(params.get('min-price')),
    maxPrice: positiveNumber(params.get('max-price')),
    rating: rating && rating >= 1 && rating <= 5 ? Math.floor(rating) : undefined,
    shippingFree: params.get('shipping-free') === '1' || params.get('shipping-free') === 'true',
  };
}

/** Whether the URL asks for anything beyond the default listing. */
export function hasListingParams(params: URLSearchParams): boolean {
  return ['order', 'p', 'limit', 'properties', 'manufacturer', 'min-price', 'max-price', 'rating', 'shipping-free'].some(
    (key) => params.has(key),
  );
}

/** The Store API listing criteria for a query: lists joined by '|'. */
export function toCriteria(query: ListingQuery): ListingCriteria {
  const criteria: ListingCriteria = { p: query.p, limit: query.limit };
  if (query.order) criteria.order = query.order;
  if (query.properties.length) criteria.properties = query.properties.join(LIST_SEPARATOR);
  if (query.manufacturer.length) criteria.manufacturer = query.manufacturer.join(LIST_SEPARATOR);
  if (query.minPrice !== undefined) criteria['min-price'] = query.minPrice;
  if (query.maxPrice !== undefined) criteria['max-price'] = query.maxPrice;
  if (query.rating !== undefined) criteria.rating = query.rating;
  if (query.shippingFree) criteria['shipping-free'] = true;
  return criteria;
}

type Change =
  | { type: 'toggle'; key: ListKey; id: string }
  | { type: 'remove'; key: ListKey; id: string }
  | { type: 'price'; min?: number; max?: number }
  | { type: 'rating'; value?: number }
  | { type: 'shippingFree'; value: boolean }
  | { type: 'order'; value: string }
  | { type: 'page'; value: number }
  | { type: 'reset' };

/**
 * The query string after a change. Any filter or sorting change goes back to page 1;
 * other parameters (like `search`) stay.
 */
export function updateListingParams(params: URLSearchParams, change: Change): URLSearchParams {
  const next = new URLSearchParams(params);
  if (change.type !== 'page') next.delete('p');
  const setList = (key: ListKey, values: string[]) =>
    values.length ? next.set(key, values.join(LIST_SEPARATOR)) : next.delete(key);
  switch (change.type) {
    case 'toggle': {
      const values = list(params.get(change.key));
      setList(change.key, values.includes(change.id) ? values.filter((id) => id !== change.id) : [...values, change.id]);
      break;
    }
    case 'remove':
      setList(
        change.key,
        list(params.get(change.key)).filter((id) => id !== change.id),
      );
      break;
    case 'price':
      for (const [key, value] of [
        ['min-price', change.min],
        ['max-price', change.max],
      ] as const) {
        if (value === undefined) next.delete(key);
        else next.set(key, String(value));
      }
      break;
    case 'rating':
      if (change.value) next.set('rating', String(change.value));
      else next.delete('rating');
      break;
    case 'shippingFree':
      if (change.value) next.set('shipping-free', '1');
      else next.delete('shipping-free');
      break;
    case 'order':
      next.set('order', change.value);
      break;
    case 'page':
      if (change.value > 1) next.set('p', String(change.value));
      else next.delete('p');
      break;
    case 'reset':
      for (const key of [...LIST_KEYS, 'min-price', 'max-price', 'rating', 'shipping-free']) next.delete(key);
      break;
  }
  return next;
}

/** The six sortings (spec section 9) by their Shopware keys, with the label key to fall back on. */
export const SORTING_LABELS = {
  'name-asc': 'nameAsc',
  'name-desc': 'nameDesc',
  'price-asc': 'priceAsc',
  'price-desc': 'priceDesc',
  topseller: 'topseller',
  'created-at-desc': 'newest',
  newest: 'newest',
} as const;

/** The page numbers to show: first, last, and the current one with neighbours; `null` is a gap. */
export function pageWindow(current: number, total: number): (number | null)[] {
  if (total <= 7) return Array.from({ length: total }, (_, index) => index + 1);
  const pages = new Set([1, total, current - 1, current, current + 1].filter((page) => page >= 1 && page <= total));
  const sorted = [...pages].sort((a, b) => a - b);
  const result: (number | null)[] = [];
  for (const page of sorted) {
    const last = result[result.length - 1];
    if (typeof last === 'number' && page - last > 1) result.push(page - last === 2 ? last + 1 : null);
    result.push(page);
  }
  return result;
}
