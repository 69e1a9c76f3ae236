import { useTranslation } from 'react-i18next';
import { slideKeyOf } from '../../session/slide-cache';
import { slideTitle } from '../../components/slide-view';
import type { Slide } from '../../api/presentation';
import { SlideNotes } from './slide-notes';
import './slide-navigator.css';

const thumbnailOf = (thumbnails: Record<string, string | null>, slide: Slide) =>
  thumbnails[slideKeyOf({ pageId: slide.groupId, sectionId: slide.sectionId })] ?? undefined;

/** Consecutive slides of one presentation page, labelled by the page's name. */
export interface SlidePage {
  pageId: string;
  /** The page's name, or null where its slides' own names already say it (an instant listing). */
  label: string | null;
  slides: Slide[];
}

/** The slides grouped by their page, in presentation order. */
export function pagesOf(slides: Slide[]): SlidePage[] {
  const pages: SlidePage[] = [];
  for (const slide of slides) {
    const last = pages.at(-1);
    if (last && last.pageId === slide.groupId) last.slides.push(slide);
    else pages.push({ pageId: slide.groupId, label: slide.groupName, slides: [slide] });
  }
  for (const page of pages) {
    const label = page.label?.trim();
    page.label = label && !page.slides.every((slide) => slideTitle(slide) === label) ? label : null;
  }
  return pages;
}

/** The slides of the presentation as a list to jump to, grouped by page, and the current slide's notes. */
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
  const thumb = (slide: Slide) => (
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
          {thumbnailOf(thumbnails, slide) && <img src={thumbnailOf(thumbnails, slide)} alt="" loading="lazy" />}
        </span>
        <span className="slide-thumb__index" aria-hidden="true">
          {slide.index}
        </span>
        <span className="slide-thumb__text">
          <span className="slide-thumb__name">{nameOf(slide)}</span>
          {/* The tag says what an instant listing is, unless its name already does. */}
          {slide.isInstantListing && nameOf(slide) !== t('cockpit.instantListing') && <span className="slide-thumb__tag">{t('cockpit.instantListing')}</span>}
        </span>
      </button>
    </li>
  );
  return (
    <div className="slide-navigator">
      <h2>{t('cockpit.slides')}</h2>
      <ol className="slide-navigator__list">
        {pagesOf(slides).map((page, position) => (
          <li key={`${position}-${page.pageId}`} className="slide-navigator__page">
            {page.label && <h3 className="slide-navigator__page-name">{page.label}</h3>}
            <ol className="slide-navigator__slides">{page.slides.map(thumb)}</ol>
          </li>
        ))}
      </ol>
      <SlideNotes slide={slides.find((slide) => slide.index === current)} />
    </div>
  );
}
