import { useTranslation } from 'react-i18next';
import type { Slide } from '@/lib/api/presentation';

/** The slide everyone is on: its position and its name. */
export function SlideView({ position, slide }: { position: string; slide: Slide | undefined }) {
  const { t } = useTranslation();
  return (
    <article className="slide" aria-live="polite">
      <p className="slide__position" data-testid="slide-position">
        {position}
      </p>
      <h2 className="slide__title">{slide?.sectionName || t('slides.untitled')}</h2>
      {slide?.groupName && <p className="slide__group">{slide.groupName}</p>}
    </article>
  );
}
