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
    expect(slideProblem(newSlide('text'))).toBe('textRequired');
    expect(slideProblem({ ...newSlide('text'), textEn: '<p></p>' })).toBe('textRequired');
    expect(slideProblem({ ...newSlide('text'), textDe: '<p>Hallo</p>' })).toBeNull();
    expect(slideProblem(newSlide('image'))).toBe('imageRequired');
    expect(slideProblem({ ...newSlide('textImage'), mediaId: 'm' })).toBeNull();
    expect(slideProblem({ ...newSlide('productText'), textEn: '<p>Light</p>' })).toBe('productRequired');
  });

  it('sends a content slide with its text by language, its image or its product', () => {
    const [text, image, intro, product] = toPages([
      { ...newSlide('text'), textEn: '<p>Hello</p>', textDe: '<p></p>' },
      { ...newSlide('image'), mediaId: 'm1' },
      { ...newSlide('textImage'), mediaId: 'm2', textEn: '<p>Look</p>' },
      { ...newSlide('productText'), productId: 'p1', textDe: '<p>Leicht</p>' },
    ]);
    expect(text).toMatchObject({ kind: 'text', texts: { 'en-GB': '<p>Hello</p>', 'de-DE': '' } });
    expect(text).not.toHaveProperty('mediaId');
    expect(image).toMatchObject({ kind: 'image', mediaId: 'm1' });
    expect(image).not.toHaveProperty('texts');
    expect(intro).toMatchObject({ kind: 'textImage', mediaId: 'm2', texts: { 'en-GB': '<p>Look</p>', 'de-DE': '' } });
    expect(product).toMatchObject({ kind: 'productText', productId: 'p1', texts: { 'en-GB': '', 'de-DE': '<p>Leicht</p>' } });
    const [read] = slidesFromPages(
      [{ id: 'p3', kind: 'textImage', title: 'Intro', cmsPageId: 'c3', productId: null, productIds: [], notes: {}, texts: { en: '<p>Look</p>' }, mediaId: 'm2' }],
      { en: 'en', de: 'de' },
    );
    expect(read).toMatchObject({ kind: 'textImage', textEn: '<p>Look</p>', textDe: '', mediaId: 'm2' });
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
