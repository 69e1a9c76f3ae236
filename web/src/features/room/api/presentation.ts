import type { Schemas } from '@shopware/api-client/store-api-types';
import type { RuntimeConfig } from '@/config/runtime';
import type { Event, StateForAll } from '@/protocol/generated';
import { roomStoreClient } from './store-client';

/**
 * A slide of the structure's navigation; `titled` (storefront-proxy's): its title is for
 * everyone (an instant listing, or a slide the backoffice made and named).
 */
export type Slide = Schemas['PresentationStructure']['navigation'][number] & { titled?: boolean };

/**
 * The slides of the appointment the context token belongs to, in order; names and the
 * guide's notes in the page's shop language.
 */
export async function getSlides(config: RuntimeConfig, contextToken: string): Promise<Slide[]> {
  const { data } = await roomStoreClient(config, contextToken).invoke(
    'getPresentationStructure get /dsr/appointment/presentation',
  );
  return [...data.navigation].sort((a, b) => a.index - b.index);
}

/**
 * The number of the slide everyone sees, from the live `currentSlideAlias`: slides are
 * numbered from 1, and 0 (no slide switched yet) shows the first.
 */
export function slideNumber(currentSlideAlias: number): number {
  return Math.max(1, currentSlideAlias);
}

export function slideAt(slides: Slide[], number: number): Slide | undefined {
  return slides.find((slide) => slide.index === number);
}

/** One slide's content: the CMS section (with its products) of presentation page `pageId`. */
export async function getSlideData(config: RuntimeConfig, contextToken: string, pageId: string, sectionId: string) {
  const { data } = await roomStoreClient(config, contextToken).invoke(
    'getSlideData get /dsr/appointment/presentation/{presentationCmsPageId}/slide/{sectionId}',
    { pathParams: { presentationCmsPageId: pageId, sectionId } },
  );
  return data;
}

/** The slides before and after `number`, to load ahead. */
export function neighboursOf(slides: Slide[], number: number): Slide[] {
  return [slideAt(slides, number + 1), slideAt(slides, number - 1), slideAt(slides, number + 2)].filter((slide): slide is Slide => !!slide);
}

/**
 * The slide everyone is on: by its number, unless the live state names another section
 * (a slide the loaded structure does not have yet stands in from the live state).
 */
export function currentSlideOf(
  slides: Slide[],
  all: Pick<StateForAll, 'currentSlideAlias' | 'currentPageId' | 'currentSectionId'>,
): Slide | undefined {
  const number = slideNumber(all.currentSlideAlias);
  const byNumber = slideAt(slides, number);
  if (!all.currentSectionId || byNumber?.sectionId === all.currentSectionId) return byNumber;
  const bySection = slides.find((slide) => slide.sectionId === all.currentSectionId && (slide.groupId === all.currentPageId || slide.cmsPageId === all.currentPageId));
  if (bySection) return bySection;
  if (!all.currentPageId) return byNumber;
  return { cmsPageId: all.currentPageId, groupId: all.currentPageId, groupName: '', sectionId: all.currentSectionId, sectionName: null, index: number, notes: [] };
}

/** A reload hint that changes the structure: a new instant listing, or one whose products changed. */
export function structureReloadOf(event: Event): { pageId: string | null } | null {
  if (event.kind !== 'reload') return null;
  const { action } = event;
  if (action.key === 'loadSlide' || action.key === 'updateListingProducts' || action.key === 'loadListingProducts') return { pageId: action.payload.pageId };
  if (action.key === 'loadProductList') return { pageId: null };
  return null;
}
