import { describe, expect, it } from 'vitest';
import { move, newSlide, slideErrors, slideProblem, slidesFromPages, toPages } from './slides';

describe('slide builder state', () => {
  it('moves slides and leaves the list alone for moves out of range', () => {
    expect(move(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
    expect(move(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    const list = ['a', 'b'];
    expect(move(list, 0, 5)).toBe(list);
    expect(move(list, -1, 0)).toBe(list);
  });

  it('says what a slide still needs', () => {
    expect(slideProblem(newSlide('productListing'))).toBe('productsRequired');
    expect(slideProblem({ ...newSlide('productListing'), categoryId: 'c' })).toBeNull();
    expect(slideProblem(newSlide('productDetail'))).toBe('productRequired');
    expect(slideProblem(newSlide('cms'))).toBe('layoutRequired');
  });

  it('round-trips pages with titles and notes per language', () => {
    const slides = slidesFromPages(
      [
        { id: 'p1', kind: 'productListing', title: 'Picked', cmsPageId: 'c1', productId: null, productIds: ['x', 'y'], notes: { en: 'Hello', de: 'Hallo' }, titles: { de: 'Auswahl' } },
        { id: 'p2', kind: 'cms', title: null, cmsPageId: 'c2', productId: null, productIds: [], notes: {} },
      ],
      { en: 'en', de: 'de' },
    );
    expect(slides[0]).toMatchObject({ id: 'p1', title: 'Picked', titleDe: 'Auswahl', notesEn: 'Hello', notesDe: 'Hallo', productIds: ['x', 'y'] });
    expect(toPages(move(slides, 1, 0))).toEqual([
      { id: 'p2', kind: 'cms', title: null, titles: { 'en-GB': '', 'de-DE': '' }, notes: { 'en-GB': '', 'de-DE': '' }, cmsPageId: 'c2' },
      {
        id: 'p1',
        kind: 'productListing',
        title: 'Picked',
        titles: { 'en-GB': 'Picked', 'de-DE': 'Auswahl' },
        notes: { 'en-GB': 'Hello', 'de-DE': 'Hallo' },
        productIds: ['x', 'y'],
      },
    ]);
    expect(toPages([{ ...newSlide('productDetail'), productId: 'z' }])[0]).toEqual({
      kind: 'productDetail',
      title: null,
      titles: { 'en-GB': '', 'de-DE': '' },
      notes: { 'en-GB': '', 'de-DE': '' },
      productId: 'z',
    });
  });

  it('finds the slide of each refused field', () => {
    expect(slideErrors({ 'pages/2/productId': 'missing', 'pages/0/productIds/1': 'unknown', name: 'blank' })).toEqual({
      2: { productId: 'missing' },
      0: { productIds: 'unknown' },
    });
  });
});
