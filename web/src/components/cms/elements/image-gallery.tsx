import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { configValue } from '../mapping';
import type { CmsElementProps } from '../context';
import './image-gallery.css';

interface SliderItem {
  media?: { url?: string; alt?: string; translated?: { alt?: string } };
  url?: string | null;
  newTab?: boolean;
}

const itemsOf = (slot: CmsElementProps['slot']): SliderItem[] =>
  ((slot.data as { sliderItems?: SliderItem[] } | undefined)?.sliderItems ?? []).filter((item) => item.media?.url);

function Slides({ items, autoSlide, speed, thumbnails }: { items: SliderItem[]; autoSlide?: boolean; speed?: number; thumbnails?: boolean }) {
  const { t } = useTranslation();
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(false);
  const step = (delta: number) => setIndex((value) => (value + delta + items.length) % items.length);
  useEffect(() => {
    if (!autoSlide || paused || items.length < 2) return;
    const timer = setInterval(() => setIndex((value) => (value + 1) % items.length), Math.max(2000, speed ?? 5000));
    return () => clearInterval(timer);
  }, [autoSlide, paused, speed, items.length]);
  if (items.length === 0) return null;
  return (
    <div
      className="cms-slider"
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
      onKeyDown={(event) => {
        if (event.key === 'ArrowLeft') step(-1);
        if (event.key === 'ArrowRight') step(1);
      }}
    >
      <div className="cms-slider__viewport">
        <div className="cms-slider__track" style={{ transform: `translateX(-${index * 100}%)` }}>
          {items.map((item, position) => {
            const image = <img src={item.media!.url} alt={item.media?.translated?.alt || item.media?.alt || ''} loading={position === 0 ? 'eager' : 'lazy'} />;
            return (
              <div key={position} className="cms-slider__slide" aria-hidden={position !== index}>
                {item.url ? (
                  <a href={item.url} target={item.newTab ? '_blank' : undefined} rel="noopener noreferrer" tabIndex={position === index ? 0 : -1}>
                    {image}
                  </a>
                ) : (
                  image
                )}
              </div>
            );
          })}
        </div>
        {items.length > 1 && (
          <>
            <button type="button" className="cms-slider__nav cms-slider__nav--prev" aria-label={t('cms.sliderPrevious')} onClick={() => step(-1)}>
              ‹
            </button>
            <button type="button" className="cms-slider__nav cms-slider__nav--next" aria-label={t('cms.sliderNext')} onClick={() => step(1)}>
              ›
            </button>
          </>
        )}
      </div>
      {items.length > 1 &&
        (thumbnails ? (
          <div className="cms-slider__thumbs">
            {items.map((item, position) => (
              <button key={position} type="button" aria-label={t('cms.sliderGoTo', { number: position + 1 })} aria-current={position === index} onClick={() => setIndex(position)}>
                <img src={item.media!.url} alt="" loading="lazy" />
              </button>
            ))}
          </div>
        ) : (
          <div className="cms-slider__dots">
            {items.map((_, position) => (
              <button key={position} type="button" aria-label={t('cms.sliderGoTo', { number: position + 1 })} aria-current={position === index} onClick={() => setIndex(position)} />
            ))}
          </div>
        ))}
    </div>
  );
}

/** An image gallery: slides with thumbnails. */
export function CmsImageGallery({ slot }: CmsElementProps) {
  return <Slides items={itemsOf(slot)} thumbnails={configValue<string>(slot, 'galleryPosition') !== 'none'} />;
}

/** An image slider: slides with dots, optionally sliding on its own. */
export function CmsImageSlider({ slot }: CmsElementProps) {
  return <Slides items={itemsOf(slot)} autoSlide={configValue<boolean>(slot, 'autoSlide')} speed={configValue<number>(slot, 'autoplayTimeout')} />;
}
