import type { Schemas } from '@shopware/api-client/store-api-types';
import type { RuntimeConfig } from '@/config/runtime';
import { createStoreClient } from './shop';

export type Slide = Schemas['PresentationStructure']['navigation'][number];

/** The slides of the appointment the context token belongs to, in order. */
export async function getSlides(config: RuntimeConfig, contextToken: string): Promise<Slide[]> {
  const { data } = await createStoreClient(config, contextToken).invoke(
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
