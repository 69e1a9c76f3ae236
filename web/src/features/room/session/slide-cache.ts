import type { Schemas } from '@shopware/api-client/store-api-types';

export type SlideData = Schemas['PresentationSlideData'];

/** Where a slide's content comes from: the presentation page and its CMS section. */
export interface SlideKey {
  pageId: string;
  sectionId: string;
}

export const slideKeyOf = ({ pageId, sectionId }: SlideKey) => `${pageId}/${sectionId}`;

export type SlideLoader = (key: SlideKey) => Promise<SlideData>;

/**
 * Loaded slides by page and section. A slide is loaded once (concurrent asks share the
 * request); a failed load is forgotten so a later ask tries again. `forget` drops the
 * slides of a page whose content changed (an instant listing that was edited).
 */
export function createSlideCache(load: SlideLoader, limit = 50) {
  const loaded = new Map<string, SlideData>();
  const pending = new Map<string, Promise<SlideData>>();
  return {
    get(key: SlideKey): SlideData | undefined {
      return loaded.get(slideKeyOf(key));
    },
    load(key: SlideKey): Promise<SlideData> {
      const id = slideKeyOf(key);
      const done = loaded.get(id);
      if (done) return Promise.resolve(done);
      const running = pending.get(id);
      if (running) return running;
      const request = load(key).then(
        (data) => {
          pending.delete(id);
          loaded.set(id, data);
          // The oldest slides go first when the cache is full.
          while (loaded.size > limit) loaded.delete(loaded.keys().next().value as string);
          return data;
        },
        (error: unknown) => {
          pending.delete(id);
          throw error;
        },
      );
      pending.set(id, request);
      return request;
    },
    forget(pageId?: string): void {
      for (const id of [...loaded.keys()]) if (!pageId || id.startsWith(`${pageId}/`)) loaded.delete(id);
    },
  };
}

export type SlideCache = ReturnType<typeof createSlideCache>;

/** The one CMS section the slide endpoint answers with. */
export function sectionOf(data: SlideData | undefined) {
  return data?.cmsPage?.sections?.[0];
}

type Media = { url?: string } | null | undefined;
type WithCover = { cover?: { media?: Media } | null } | null | undefined;

const coverOf = (product: WithCover) => product?.cover?.media?.url || undefined;

/** The first picture of a slide (an image, else the first product's cover), for its thumbnail. */
export function firstImageOf(data: SlideData | undefined): string | undefined {
  for (const section of data?.cmsPage?.sections ?? []) {
    const blocks = [...(section.blocks ?? [])].sort((a, b) => (a.position ?? 0) - (b.position ?? 0));
    for (const block of blocks) {
      for (const slot of block.slots ?? []) {
        const slotData = (slot.data ?? {}) as {
          media?: Media;
          product?: WithCover;
          products?: WithCover[];
          listing?: { elements?: WithCover[] };
          sliderItems?: { media?: Media }[];
        };
        const url =
          slotData.media?.url ||
          slotData.sliderItems?.[0]?.media?.url ||
          coverOf(slotData.product) ||
          coverOf(slotData.products?.[0]) ||
          coverOf(slotData.listing?.elements?.[0]);
        if (url) return url;
      }
    }
  }
  return coverOf(data?.product);
}
