import { useTranslation } from 'react-i18next';
import { slideKeyOf } from '@/components/room/slide-cache';
import { slideTitle } from '@/components/slide-view';
import type { Slide } from '@/lib/api/presentation';
import { SlideNotes } from './slide-notes';

const thumbnailOf = (thumbnails: Record<string, string | null>, slide: Slide) =>
  thumbnails[slideKeyOf({ pageId: slide.groupId, sectionId: slide.sectionId })] ?? undefined;

/** The slides of the presentation as a list to jump to, and the current slide's notes. */
export function SlideNavigator({
  slides,
  current,
  thumbnails = {},
  disabled,
  onSelect,
}: {
  slides: Slide[];
  current: number;
  /** The first picture of each loaded slide by page/section (null: it has none). */
  thumbnails?: Record<string, string | null>;
  disabled: boolean;
  onSelect: (slide: Slide) => void;
}) {
  const { t } = useTranslation();
  const nameOf = (slide: Slide) => slideTitle(slide) || t('slides.untitled');
  return (
    <div className="slide-navigator">
      <h2>{t('cockpit.slides')}</h2>
      <ol className="slide-navigator__list">
        {slides.map((slide) => (
          <li key={`${slide.index}-${slide.sectionId}`}>
            <button
              type="button"
              className="slide-thumb"
              aria-current={slide.index === current ? 'step' : undefined}
              aria-label={t('cockpit.goToSlide', { number: slide.index, name: nameOf(slide) })}
              disabled={disabled}
              onClick={() => onSelect(slide)}
            >
              <span className="slide-thumb__picture" aria-hidden="true">
                {thumbnailOf(thumbnails, slide) ? <img src={thumbnailOf(thumbnails, slide)} alt="" loading="lazy" /> : <span className="slide-thumb__number">{slide.index}</span>}
              </span>
              <span className="slide-thumb__text">
                <span className="slide-thumb__index" aria-hidden="true">
                  {slide.index}
                </span>
                <span className="slide-thumb__name">{nameOf(slide)}</span>
                {slide.isInstantListing && <span className="slide-thumb__tag">{t('cockpit.instantListing')}</span>}
              </span>
            </button>
          </li>
        ))}
      </ol>
      <SlideNotes slide={slides.find((slide) => slide.index === current)} />
    </div>
  );
}
