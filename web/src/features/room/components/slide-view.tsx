import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '@/components/spinner';
import { CmsPage } from '@/components/cms/cms-page';
import type { Slide } from '../api/presentation';
import { ROOM_CMS_CONTEXT, RoomSlideProvider, type RoomSlideTools } from './room-cms';
import { slideKeyOf, type SlideCache, type SlideData } from '../session/slide-cache';
import './slide-view.css';

/** A slide's name: an instant listing is named by its page (the guide's name for it), others by their section. */
export function slideTitle(slide: Slide): string {
  return (slide.isInstantListing ? slide.groupName || slide.sectionName : slide.sectionName || slide.groupName) ?? '';
}

interface Shown {
  slide: Slide;
  position: string;
  data: SlideData | null;
  failed: boolean;
}

/**
 * The slide everyone is on: its position, its name and its content (the CMS section of
 * the slide endpoint). While the next slide loads the previous one stays, so a switch
 * never flickers; loaded slides come from the cache.
 *
 * Section names are the shop's own labels, in one language: only the guide sees them as
 * titles. An instant listing's name, which the guide gives it for everyone, shows to all,
 * and so does the title the merchant gave a slide in the backoffice (`titled`: a listing,
 * a text, an image).
 * The page's name is not repeated here: the guide's slide list groups the slides by page.
 */
export function SlideView({
  position,
  slide,
  cache,
  tools,
  sectionNames = false,
}: {
  position: string;
  slide: Slide | undefined;
  cache?: SlideCache;
  tools?: RoomSlideTools;
  /** Whether a slide's section name shows as its title (the guide's view). */
  sectionNames?: boolean;
}) {
  const { t } = useTranslation();
  const key = slide ? { pageId: slide.groupId, sectionId: slide.sectionId } : null;
  const cached = key && cache ? cache.get(key) : undefined;
  const [shown, setShown] = useState<Shown | null>(null);

  useEffect(() => {
    if (!slide || !cache) return;
    const target = { pageId: slide.groupId, sectionId: slide.sectionId };
    if (cache.get(target)) return;
    let cancelled = false;
    cache
      .load(target)
      .then((data) => !cancelled && setShown({ slide, position, data, failed: false }))
      .catch((error: unknown) => {
        console.warn('could not load the slide', error);
        if (!cancelled) setShown({ slide, position, data: null, failed: true });
      });
    return () => {
      cancelled = true;
    };
  }, [slide, position, cache]);

  // A cached slide shows at once; otherwise the last shown one until this one is loaded.
  const current: Shown | null = cached && slide ? { slide, position, data: cached, failed: false } : shown;
  const loading = !!slide && !!cache && !cached && (current?.slide !== slide);
  const visible = cache ? current : slide ? { slide, position, data: null, failed: false } : null;
  const title = visible && (sectionNames || visible.slide.isInstantListing || visible.slide.titled) ? slideTitle(visible.slide) || t('slides.untitled') : null;

  return (
    <article
      className="slide"
      aria-live="polite"
      aria-busy={loading}
      data-testid="slide"
      data-slide-index={visible?.slide.index}
      data-slide-key={visible ? slideKeyOf({ pageId: visible.slide.groupId, sectionId: visible.slide.sectionId }) : undefined}
    >
      <header className="slide__header">
        <p className="slide__position" data-testid="slide-position">
          {visible?.position ?? position}
        </p>
        {title && <h2 className="slide__title">{title}</h2>}
        {loading && <span className="slide__loading" aria-hidden="true" />}
      </header>
      {visible?.failed && (
        <p className="alert" role="alert">
          {t('slides.loadFailed')}
        </p>
      )}
      {!visible && cache && slide && <Spinner />}
      {visible?.data?.cmsPage && (
        <div className="slide__content" data-testid="slide-content">
          <RoomSlideProvider value={{ ...tools, onOpen: tools?.onOpen ?? (() => undefined), pageId: visible.slide.groupId }}>
            <CmsPage page={visible.data.cmsPage} context={ROOM_CMS_CONTEXT} />
          </RoomSlideProvider>
        </div>
      )}
    </article>
  );
}
