import { useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Schemas } from '@shopware/api-client/store-api-types';
import './product-gallery.css';

type Product = Schemas['Product'];

type Media = NonNullable<Product['media']>[number];

/** The product's images: a large one and thumbnails; arrow keys and buttons step through. */
export function ProductGallery({ product, name }: { product: Product; name: string }) {
  const { t } = useTranslation();
  const media: Media[] = [...(product.media ?? [])].sort((a, b) => (a.position ?? 0) - (b.position ?? 0)).filter((entry) => entry.media?.url);
  const coverIndex = Math.max(0, media.findIndex((entry) => entry.id === product.coverId));
  const [index, setIndex] = useState(coverIndex);
  const images = media.length > 0 ? media : product.cover?.media?.url ? [product.cover] : [];
  const current = images[Math.min(index, images.length - 1)];
  const step = (delta: number) => setIndex((value) => (value + delta + images.length) % images.length);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowLeft') step(-1);
    if (event.key === 'ArrowRight') step(1);
  };

  if (!current?.media?.url) {
    return (
      <div className="gallery">
        <div className="gallery__stage gallery__stage--empty">{t('product.noImage')}</div>
      </div>
    );
  }
  return (
    <section className="gallery" aria-label={t('product.gallery')} onKeyDown={onKeyDown}>
      <div className="gallery__stage">
        <img src={current.media.url} alt={current.media.alt || name} />
        {images.length > 1 && (
          <>
            <button type="button" className="gallery__nav gallery__nav--prev" aria-label={t('product.previousImage')} onClick={() => step(-1)}>
              ‹
            </button>
            <button type="button" className="gallery__nav gallery__nav--next" aria-label={t('product.nextImage')} onClick={() => step(1)}>
              ›
            </button>
          </>
        )}
      </div>
      {images.length > 1 && (
        <ul className="gallery__thumbs">
          {images.map((entry, position) => (
            <li key={entry.id ?? position}>
              <button
                type="button"
                className="gallery__thumb"
                aria-label={t('product.showImage', { number: position + 1 })}
                aria-current={position === index ? 'true' : undefined}
                onClick={() => setIndex(position)}
              >
                <img src={entry.media?.url} alt="" loading="lazy" />
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
