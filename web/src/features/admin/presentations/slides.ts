/**
 * The slide builder's state: a presentation's pages in order, as the Admin API's
 * `pages` of `dsr-presentation` has them (see storefront-proxy admin_api/entities/slides.rs).
 * Pure, so it is tested without a browser.
 */

export type SlideKind = 'productListing' | 'productDetail' | 'cms' | ContentKind;

/** The slides whose CMS page the server makes from a text, an image or a product (no layout needed). */
export type ContentKind = 'text' | 'image' | 'textImage' | 'productText';

/** Every kind, in the order the builder offers them. */
export const SLIDE_KINDS: SlideKind[] = ['text', 'image', 'textImage', 'productListing', 'productDetail', 'productText', 'cms'];

/** Which kinds have a text, an image, a product. */
export const hasText = (kind: SlideKind) => kind === 'text' || kind === 'textImage' || kind === 'productText';
export const hasImage = (kind: SlideKind) => kind === 'image' || kind === 'textImage';
export const hasProduct = (kind: SlideKind) => kind === 'productDetail' || kind === 'productText';

/** A page as the Admin API answers it. */
export interface PageEntity {
  id: string;
  kind: SlideKind;
  title: string | null;
  cmsPageId: string;
  cmsPageName?: string;
  productId: string | null;
  productIds: string[];
  notes: Record<string, string>;
  /** Titles by language id. */
  titles?: Record<string, string>;
  /** A content slide's text by language id, and its image. */
  texts?: Record<string, string>;
  mediaId?: string | null;
}

export interface SlideDraft {
  /** The page id once stored; a local key before. */
  key: string;
  id: string | null;
  kind: SlideKind;
  /** The title in English (also the title without a language). */
  title: string;
  titleDe: string;
  productIds: string[];
  categoryId: string;
  productId: string;
  cmsPageId: string;
  notesEn: string;
  notesDe: string;
  /** A text, text-with-image or product-with-text slide's text (HTML). */
  textEn: string;
  textDe: string;
  /** An image or text-with-image slide's picture (a media id). */
  mediaId: string;
}

let counter = 0;
const localKey = () => `new-${++counter}`;

export function newSlide(kind: SlideKind): SlideDraft {
  return {
    key: localKey(),
    id: null,
    kind,
    title: '',
    titleDe: '',
    productIds: [],
    categoryId: '',
    productId: '',
    cmsPageId: '',
    notesEn: '',
    notesDe: '',
    textEn: '',
    textDe: '',
    mediaId: '',
  };
}

export function slidesFromPages(pages: PageEntity[], languages: { en?: string; de?: string }): SlideDraft[] {
  return pages.map((page) => ({
    key: page.id,
    id: page.id,
    kind: page.kind,
    title: (languages.en && page.titles?.[languages.en]) || page.title || '',
    titleDe: (languages.de && page.titles?.[languages.de]) || '',
    productIds: page.productIds,
    categoryId: '',
    productId: page.productId ?? '',
    cmsPageId: page.cmsPageId,
    notesEn: (languages.en && page.notes[languages.en]) || '',
    notesDe: (languages.de && page.notes[languages.de]) || '',
    textEn: (languages.en && page.texts?.[languages.en]) || '',
    textDe: (languages.de && page.texts?.[languages.de]) || '',
    mediaId: page.mediaId ?? '',
  }));
}

/** `list` with the item at `from` moved to `to`. */
export function move<T>(list: T[], from: number, to: number): T[] {
  if (from === to || from < 0 || to < 0 || from >= list.length || to >= list.length) return list;
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item as T);
  return next;
}

/** Whether rich text has any words (an empty editor leaves tags or nothing). */
const blank = (html: string) => !html.replace(/<[^>]*>/g, '').trim();

export type SlideProblem = 'productsRequired' | 'productRequired' | 'layoutRequired' | 'textRequired' | 'imageRequired';

/** What is missing for a slide to be saved: message keys under `admin.presentations.errors`. */
export function slideProblem(slide: SlideDraft): SlideProblem | null {
  if (slide.kind === 'productListing' && !slide.productIds.length && !slide.categoryId) return 'productsRequired';
  if (hasProduct(slide.kind) && !slide.productId) return 'productRequired';
  if (slide.kind === 'cms' && !slide.cmsPageId) return 'layoutRequired';
  if (hasImage(slide.kind) && !slide.mediaId) return 'imageRequired';
  if (slide.kind === 'text' && blank(slide.textEn) && blank(slide.textDe)) return 'textRequired';
  return null;
}

/** The Admin API's field of a slide's problem (`pages/{n}/{field}`). */
export function problemField(problem: SlideProblem): string {
  return { productsRequired: 'productIds', productRequired: 'productId', layoutRequired: 'cmsPageId', textRequired: 'texts', imageRequired: 'mediaId' }[problem];
}

/** The Admin API's `pages`: the whole list in order; titles and notes by language code. */
export function toPages(slides: SlideDraft[]): Record<string, unknown>[] {
  return slides.map((slide) => {
    const page: Record<string, unknown> = {
      ...(slide.id ? { id: slide.id } : {}),
      kind: slide.kind,
      title: slide.title.trim() || null,
      titles: { 'en-GB': slide.title.trim(), 'de-DE': slide.titleDe.trim() },
      notes: { 'en-GB': slide.notesEn, 'de-DE': slide.notesDe },
    };
    if (slide.kind === 'productListing') {
      page.productIds = slide.productIds;
      if (slide.categoryId) page.categoryId = slide.categoryId;
    }
    if (hasProduct(slide.kind)) page.productId = slide.productId;
    if (slide.kind === 'cms') page.cmsPageId = slide.cmsPageId;
    if (hasImage(slide.kind)) page.mediaId = slide.mediaId;
    if (hasText(slide.kind)) page.texts = { 'en-GB': blank(slide.textEn) ? '' : slide.textEn, 'de-DE': blank(slide.textDe) ? '' : slide.textDe };
    return page;
  });
}

/** Field errors of a refused save by slide index (`pages/2/productId` → 2: productId). */
export function slideErrors(fields: Record<string, string>): Record<number, Record<string, string>> {
  const out: Record<number, Record<string, string>> = {};
  for (const [field, message] of Object.entries(fields)) {
    const match = /^pages\/(\d+)\/(.+)$/.exec(field);
    if (!match) continue;
    const index = Number(match[1]);
    const rest = (match[2] ?? '').replace(/\/\d+$/, '');
    (out[index] ??= {})[rest] ??= message;
  }
  return out;
}
