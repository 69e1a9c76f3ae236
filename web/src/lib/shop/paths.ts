/** What a content page path points at (spec section 2, "Path resolution"). */
export type ResolvedPath =
  | { kind: 'category'; id: string | null }
  | { kind: 'product'; id: string }
  | { kind: 'landingPage'; id: string }
  | { kind: 'seo'; seoPath: string };

const BY_PATH_INFO: [prefix: string, kind: 'category' | 'product' | 'landingPage'][] = [
  ['/navigation/', 'category'],
  ['/detail/', 'product'],
  ['/landingPage/', 'landingPage'],
];

/**
 * Resolves a path without locale prefix: '/' is the sales channel's navigation
 * category (`id: null`), `/navigation/`, `/detail/` and `/landingPage/` carry the id,
 * anything else is an seo path (leading slash removed).
 */
export function resolvePath(path: string): ResolvedPath {
  const clean = path.split(/[?#]/)[0] || '/';
  if (clean === '/' || clean === '') return { kind: 'category', id: null };
  for (const [prefix, kind] of BY_PATH_INFO) {
    if (clean.startsWith(prefix)) {
      const id = clean.slice(prefix.length).split('/')[0] ?? '';
      if (id) return { kind, id };
    }
  }
  return { kind: 'seo', seoPath: decodeURI(clean.replace(/^\/+/, '')) };
}

/** Seo URL route names and what they point at. */
export const SEO_ROUTES: Record<string, 'category' | 'product' | 'landingPage'> = {
  'frontend.navigation.page': 'category',
  'frontend.detail.page': 'product',
  'frontend.landing.page': 'landingPage',
};

interface WithSeoUrls {
  id: string;
  seoUrls?: { seoPathInfo?: string; isCanonical?: boolean; routeName?: string }[] | null;
}

function seoPath(entity: WithSeoUrls, routeName: string): string | null {
  const urls = (entity.seoUrls ?? []).filter((url) => url.seoPathInfo && (!url.routeName || url.routeName === routeName));
  const url = urls.find((candidate) => candidate.isCanonical) ?? urls[0];
  return url?.seoPathInfo ? `/${url.seoPathInfo.replace(/^\/+/, '')}` : null;
}

/** A product's link: its seo path or `/detail/{id}` (without locale prefix). */
export function productPath(product: WithSeoUrls): string {
  return seoPath(product, 'frontend.detail.page') ?? `/detail/${product.id}`;
}

/** A category's link: its seo path or `/navigation/{id}`. */
export function categoryPath(category: WithSeoUrls): string {
  return seoPath(category, 'frontend.navigation.page') ?? `/navigation/${category.id}`;
}

export function landingPagePath(landingPage: WithSeoUrls): string {
  return seoPath(landingPage, 'frontend.landing.page') ?? `/landingPage/${landingPage.id}`;
}

export interface NavigationEntry extends WithSeoUrls {
  // `string & {}`: any string, and the known ones still named (and suggested by the editor).
  type?: 'page' | 'link' | 'folder' | (string & {});
  linkType?: 'category' | 'product' | 'external' | 'landing_page' | (string & {}) | null;
  internalLink?: string | null;
  externalLink?: string | null;
  linkNewTab?: boolean | null;
}

/**
 * Where a navigation entry leads: a page to its category, a link to its internal target
 * or external URL; a folder nowhere (null). External links are absolute.
 */
export function navigationEntryLink(entry: NavigationEntry): { to: string; external: boolean } | null {
  if (entry.type === 'folder') return null;
  if (entry.type === 'link') {
    if (entry.linkType === 'external' || (!entry.linkType && entry.externalLink)) {
      return entry.externalLink ? { to: entry.externalLink, external: true } : null;
    }
    if (!entry.internalLink) return null;
    if (entry.linkType === 'product') return { to: `/detail/${entry.internalLink}`, external: false };
    if (entry.linkType === 'landing_page') return { to: landingPagePath({ id: entry.internalLink, seoUrls: entry.seoUrls }), external: false };
    return { to: `/navigation/${entry.internalLink}`, external: false };
  }
  return { to: categoryPath(entry), external: false };
}
