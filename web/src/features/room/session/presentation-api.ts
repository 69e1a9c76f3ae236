import type { RuntimeConfig } from '@/config/runtime';
import { getSlideData, getSlides } from '../api/presentation';
import type { PresentationApi } from './room-session';

/** The presentation over the shop's REST endpoints, as both sides' sessions read it (the sessions know no HTTP). */
export function presentationApi(config: RuntimeConfig, contextToken: string): PresentationApi {
  return {
    slides: () => getSlides(config, contextToken),
    slide: ({ pageId, sectionId }) => getSlideData(config, contextToken, pageId, sectionId),
  };
}
