import { describe, expect, it, vi } from 'vitest';
import { createSlideCache, firstImageOf, type SlideData } from './slide-cache';

const slide = (name: string) => ({ cmsPage: { name } }) as unknown as SlideData;

describe('slide cache', () => {
  it('loads a slide once, sharing concurrent requests', async () => {
    const load = vi.fn(async () => slide('one'));
    const cache = createSlideCache(load);
    const key = { pageId: 'p', sectionId: 's' };
    const [a, b] = await Promise.all([cache.load(key), cache.load(key)]);
    expect(a).toBe(b);
    expect(await cache.load(key)).toBe(a);
    expect(cache.get(key)).toBe(a);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('forgets a failed load so the next ask tries again', async () => {
    const load = vi.fn().mockRejectedValueOnce(new Error('down')).mockResolvedValueOnce(slide('two'));
    const cache = createSlideCache(load);
    const key = { pageId: 'p', sectionId: 's' };
    await expect(cache.load(key)).rejects.toThrow('down');
    expect(cache.get(key)).toBeUndefined();
    expect((await cache.load(key)).cmsPage).toEqual({ name: 'two' });
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('drops the slides of one page, and the oldest beyond its limit', async () => {
    const cache = createSlideCache(async ({ sectionId }) => slide(sectionId), 2);
    await cache.load({ pageId: 'a', sectionId: '1' });
    await cache.load({ pageId: 'b', sectionId: '2' });
    cache.forget('a');
    expect(cache.get({ pageId: 'a', sectionId: '1' })).toBeUndefined();
    expect(cache.get({ pageId: 'b', sectionId: '2' })).toBeDefined();
    await cache.load({ pageId: 'c', sectionId: '3' });
    await cache.load({ pageId: 'd', sectionId: '4' });
    expect(cache.get({ pageId: 'b', sectionId: '2' })).toBeUndefined();
    expect(cache.get({ pageId: 'd', sectionId: '4' })).toBeDefined();
  });
});

describe('first image of a slide', () => {
  const withSlots = (slots: unknown[]) => ({ cmsPage: { sections: [{ blocks: [{ position: 0, slots }] }] } }) as unknown as SlideData;

  it('takes an image element first', () => {
    expect(firstImageOf(withSlots([{ type: 'text', data: {} }, { type: 'image', data: { media: { url: '/a.jpg' } } }]))).toBe('/a.jpg');
  });

  it('takes the first product cover of a slider or listing', () => {
    expect(firstImageOf(withSlots([{ data: { products: [{ cover: { media: { url: '/p.jpg' } } }] } }]))).toBe('/p.jpg');
    expect(firstImageOf(withSlots([{ data: { listing: { elements: [{ cover: { media: { url: '/l.jpg' } } }] } } }]))).toBe('/l.jpg');
  });

  it('has none for a text slide', () => {
    expect(firstImageOf(withSlots([{ type: 'text', data: { content: '<p>hi</p>' } }]))).toBeUndefined();
    expect(firstImageOf(undefined)).toBeUndefined();
  });
});
