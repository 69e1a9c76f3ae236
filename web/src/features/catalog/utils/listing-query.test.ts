import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMIT, hasListingParams, pageWindow, parseListingQuery, toCriteria, updateListingParams } from './listing-query';

const params = (query: string) => new URLSearchParams(query);

describe('listing query', () => {
  it('defaults to page 1 with 10 products', () => {
    expect(parseListingQuery(params(''))).toEqual({ p: 1, limit: DEFAULT_LIMIT, properties: [], manufacturer: [], shippingFree: false });
    expect(DEFAULT_LIMIT).toBe(10);
    expect(toCriteria(parseListingQuery(params('')))).toEqual({ p: 1, limit: 10 });
  });

  it("reads and writes properties and manufacturers joined by '|'", () => {
    const query = parseListingQuery(params('properties=a|b&manufacturer=m1|m2&order=price-asc&p=3&min-price=10&max-price=50&rating=4&shipping-free=1'));
    expect(toCriteria(query)).toEqual({
      p: 3,
      limit: 10,
      order: 'price-asc',
      properties: 'a|b',
      manufacturer: 'm1|m2',
      'min-price': 10,
      'max-price': 50,
      rating: 4,
      'shipping-free': true,
    });
  });

  it('ignores nonsense', () => {
    expect(parseListingQuery(params('p=-2&limit=abc&rating=9&min-price=x'))).toMatchObject({ p: 1, limit: 10, rating: undefined, minPrice: undefined });
  });

  it('toggles filters and goes back to page 1, keeping the search term', () => {
    let next = updateListingParams(params('search=shirt&p=4&properties=a'), { type: 'toggle', key: 'properties', id: 'b' });
    expect(next.get('properties')).toBe('a|b');
    expect(next.get('p')).toBeNull();
    expect(next.get('search')).toBe('shirt');
    next = updateListingParams(next, { type: 'toggle', key: 'properties', id: 'a' });
    expect(next.get('properties')).toBe('b');
    next = updateListingParams(next, { type: 'remove', key: 'properties', id: 'b' });
    expect(next.has('properties')).toBe(false);
  });

  it('sets price, rating, free shipping, sorting and page; reset drops the filters only', () => {
    let next = updateListingParams(params(''), { type: 'price', min: 5, max: undefined });
    next = updateListingParams(next, { type: 'rating', value: 3 });
    next = updateListingParams(next, { type: 'shippingFree', value: true });
    next = updateListingParams(next, { type: 'order', value: 'name-desc' });
    next = updateListingParams(next, { type: 'page', value: 2 });
    expect(Object.fromEntries(next)).toEqual({ 'min-price': '5', rating: '3', 'shipping-free': '1', order: 'name-desc', p: '2' });
    next = updateListingParams(next, { type: 'reset' });
    expect(Object.fromEntries(next)).toEqual({ order: 'name-desc' });
    expect(updateListingParams(params('p=3'), { type: 'page', value: 1 }).has('p')).toBe(false);
  });

  it('knows when the URL asks for more than the default listing', () => {
    expect(hasListingParams(params('search=x'))).toBe(false);
    expect(hasListingParams(params('order=name-asc'))).toBe(true);
  });

  it('shows a window of pages', () => {
    expect(pageWindow(1, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(1, 20)).toEqual([1, 2, null, 20]);
    expect(pageWindow(10, 20)).toEqual([1, null, 9, 10, 11, null, 20]);
    expect(pageWindow(3, 20)).toEqual([1, 2, 3, 4, null, 20]);
  });
});
