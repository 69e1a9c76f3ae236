import { describe, expect, it } from 'vitest';
import { categoryPath, navigationEntryLink, productPath, resolvePath } from './paths';

describe('resolvePath', () => {
  it.each([
    ['/', { kind: 'category', id: null }],
    ['', { kind: 'category', id: null }],
    ['/navigation/abc', { kind: 'category', id: 'abc' }],
    ['/detail/0123', { kind: 'product', id: '0123' }],
    ['/landingPage/lp1', { kind: 'landingPage', id: 'lp1' }],
    ['/Clothing/Shirts/', { kind: 'seo', seoPath: 'Clothing/Shirts/' }],
    ['/Flannel-shirt/SR10003?x=1', { kind: 'seo', seoPath: 'Flannel-shirt/SR10003' }],
    ['/Kaffee-%26-Tee/', { kind: 'seo', seoPath: 'Kaffee-%26-Tee/' }],
    ['/M%C3%A4ntel/', { kind: 'seo', seoPath: 'Mäntel/' }],
    ['/navigation/', { kind: 'seo', seoPath: 'navigation/' }],
  ] as const)('%s', (path, expected) => {
    expect(resolvePath(path)).toEqual(expected);
  });
});

describe('links', () => {
  it('go to the seo path, the canonical one first', () => {
    const product = {
      id: 'p1',
      seoUrls: [
        { seoPathInfo: 'Old/SR1', isCanonical: false, routeName: 'frontend.detail.page' },
        { seoPathInfo: 'Shirt/SR1', isCanonical: true, routeName: 'frontend.detail.page' },
      ],
    };
    expect(productPath(product)).toBe('/Shirt/SR1');
  });

  it('fall back to /detail/{id} and /navigation/{id}', () => {
    expect(productPath({ id: 'p1' })).toBe('/detail/p1');
    expect(categoryPath({ id: 'c1', seoUrls: [] })).toBe('/navigation/c1');
  });

  it('follow navigation entries by type and link type', () => {
    expect(navigationEntryLink({ id: 'c', type: 'page', seoUrls: [{ seoPathInfo: 'Shoes/' }] })).toEqual({ to: '/Shoes/', external: false });
    expect(navigationEntryLink({ id: 'f', type: 'folder' })).toBeNull();
    expect(navigationEntryLink({ id: 'l', type: 'link', linkType: 'external', externalLink: 'https://example.com' })).toEqual({
      to: 'https://example.com',
      external: true,
    });
    expect(navigationEntryLink({ id: 'l', type: 'link', linkType: 'product', internalLink: 'p9' })).toEqual({ to: '/detail/p9', external: false });
    expect(navigationEntryLink({ id: 'l', type: 'link', linkType: 'landing_page', internalLink: 'lp' })).toEqual({
      to: '/landingPage/lp',
      external: false,
    });
    // With the landing page's SEO URL (the shop adds it to the link): its readable path.
    expect(
      navigationEntryLink({
        id: 'l',
        type: 'link',
        linkType: 'landing_page',
        internalLink: 'lp',
        seoUrls: [{ seoPathInfo: 'spring-inspiration/', isCanonical: true, routeName: 'frontend.landing.page' }],
      }),
    ).toEqual({ to: '/spring-inspiration/', external: false });
    expect(navigationEntryLink({ id: 'l', type: 'link', linkType: 'category', internalLink: 'c2' })).toEqual({ to: '/navigation/c2', external: false });
  });
});
