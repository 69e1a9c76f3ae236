import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { RatingStars } from '@/components/rating-stars';
import { formatDate, formatNumber } from '@/lib/format';
import { getCrossSellings, getProducts, getReviews, type CrossSellingElement, type Product, type ProductReview } from '../api/catalog';
import { recentlyViewedStore } from '../stores/recently-viewed';
import { ProductCard } from './product-card';
import '@/components/cms/elements/image-gallery.css';
import './product-sections.css';

/** Properties and measurements as a definition list. */
export function Specifications({ product }: { product: Product }) {
  const { t, i18n } = useTranslation();
  const rows: [string, string][] = [];
  const groups = new Map<string, { name: string; values: string[] }>();
  for (const option of product.properties ?? []) {
    const group = option.group;
    const key = group?.id ?? option.groupId;
    const entry = groups.get(key) ?? { name: group?.translated?.name || group?.name || '', values: [] };
    entry.values.push(option.translated?.name || option.name);
    groups.set(key, entry);
  }
  for (const { name, values } of groups.values()) if (name) rows.push([name, values.join(', ')]);
  const measure = (value: number | undefined, unit: string) => (value ? `${formatNumber(value, i18n.language)} ${unit}` : null);
  const push = (label: string, value: string | null) => value && rows.push([label, value]);
  push(t('product.specs.width'), measure(product.width, 'mm'));
  push(t('product.specs.height'), measure(product.height, 'mm'));
  push(t('product.specs.length'), measure(product.length, 'mm'));
  push(t('product.specs.weight'), measure(product.weight, 'kg'));
  const unit = product.unit?.translated?.name || product.unit?.name || product.unit?.shortCode;
  push(t('product.specs.sellingUnit'), product.purchaseUnit ? `${formatNumber(product.purchaseUnit, i18n.language)} ${unit ?? ''}`.trim() : null);
  push(t('product.specs.packUnit'), product.translated?.packUnit || product.packUnit || null);
  push(t('product.specs.basicUnit'), product.referenceUnit ? `${formatNumber(product.referenceUnit, i18n.language)} ${unit ?? ''}`.trim() : null);
  if (rows.length === 0) return null;
  return (
    <dl className="specs">
      {rows.map(([label, value]) => (
        <div key={label} className="specs__row">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The product's reviews with the average. */
export function Reviews({ product }: { product: Product }) {
  const { t, i18n } = useTranslation();
  const [reviews, setReviews] = useState<{ elements: ProductReview[]; total: number } | null>(null);
  const [failed, setFailed] = useState(false);
  // Another product or language: its reviews are loading.
  const reviewsKey = `${product.parentId || product.id}:${i18n.language}`;
  const [shownKey, setShownKey] = useState(reviewsKey);
  if (shownKey !== reviewsKey) {
    setShownKey(reviewsKey);
    setReviews(null);
  }
  useEffect(() => {
    let cancelled = false;
    getReviews(product.parentId || product.id)
      .then((data) => !cancelled && setReviews(data))
      .catch(() => !cancelled && setFailed(true));
    return () => {
      cancelled = true;
    };
  }, [product.id, product.parentId, i18n.language]);

  if (failed) return <p className="muted">{t('errors.generic')}</p>;
  if (!reviews) return <p className="muted">{t('app.loading')}</p>;
  if (reviews.elements.length === 0) return <p className="muted">{t('product.noReviews')}</p>;
  const average = product.ratingAverage ?? reviews.elements.reduce((sum, review) => sum + (review.points ?? 0), 0) / reviews.elements.length;
  return (
    <div className="reviews">
      <p className="reviews__summary">
        <RatingStars rating={average} size="large" />
        <span>{t('product.reviewsCount', { count: reviews.total })}</span>
      </p>
      <ul className="reviews__list">
        {reviews.elements.map((review) => (
          <li key={review.id} className="review">
            <RatingStars rating={review.points ?? 0} />
            <h4 className="review__title">{review.title}</h4>
            <p className="review__content">{review.content}</p>
            {review.createdAt && (
              <p className="review__meta">{formatDate(review.createdAt, { locale: i18n.language })}</p>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A horizontal row of product cards, under a heading when `title` is given; arrows scroll it when it is wider than the page. */
export function ProductRow({ title, products }: { title?: string; products: Product[] }) {
  const { t } = useTranslation();
  const track = useRef<HTMLDivElement>(null);
  const [position, setPosition] = useState({ overflows: false, atStart: true, atEnd: true });
  useEffect(() => {
    const element = track.current;
    if (!element) return;
    const update = () =>
      setPosition({
        overflows: element.scrollWidth > element.clientWidth + 1,
        atStart: element.scrollLeft <= 1,
        atEnd: element.scrollLeft + element.clientWidth >= element.scrollWidth - 1,
      });
    update();
    element.addEventListener('scroll', update, { passive: true });
    const observer = new ResizeObserver(update);
    observer.observe(element);
    return () => {
      element.removeEventListener('scroll', update);
      observer.disconnect();
    };
  }, [products.length]);
  if (products.length === 0) return null;
  const scroll = (direction: 1 | -1) => track.current?.scrollBy({ left: direction * track.current.clientWidth, behavior: 'smooth' });
  // At an end the arrow stays (aria-disabled keeps the focus on it) but does nothing.
  const arrow = (direction: 1 | -1, atEnd: boolean) => (
    <button
      type="button"
      className={`cms-slider__nav cms-slider__nav--${direction < 0 ? 'prev' : 'next'} product-row__nav`}
      aria-label={t(direction < 0 ? 'cms.sliderPrevious' : 'cms.sliderNext')}
      aria-disabled={atEnd}
      onClick={() => !atEnd && scroll(direction)}
    >
      {direction < 0 ? '‹' : '›'}
    </button>
  );
  return (
    <section className="product-row">
      {title && <h2 className="section-title">{title}</h2>}
      <div className="product-row__viewport">
        <div className="product-row__track" ref={track}>
          {products.map((product) => (
            <ProductCard key={product.id} product={product} />
          ))}
        </div>
        {position.overflows && (
          <>
            {arrow(-1, position.atStart)}
            {arrow(1, position.atEnd)}
          </>
        )}
      </div>
    </section>
  );
}

/** The product's cross-sellings (`/product/{id}/cross-selling`), one row each. */
export function CrossSellings({ product }: { product: Product }) {
  const { t, i18n } = useTranslation();
  const [elements, setElements] = useState<CrossSellingElement[]>([]);
  useEffect(() => {
    let cancelled = false;
    getCrossSellings(product.id)
      .then((data) => !cancelled && setElements(data))
      .catch(() => !cancelled && setElements([]));
    return () => {
      cancelled = true;
    };
  }, [product.id, i18n.language]);
  return (
    <>
      {elements
        .filter((element) => element.products?.length)
        .map((element) => (
          <ProductRow key={element.crossSelling?.id ?? element.streamId} title={element.crossSelling?.translated?.name || element.crossSelling?.name || t('product.crossSelling')} products={element.products} />
        ))}
    </>
  );
}

/** Remembers `product` as viewed and shows the others this browser looked at. */
export function RecentlyViewed({ product }: { product: Product }) {
  const { t, i18n } = useTranslation();
  const ids = useStore(recentlyViewedStore, (state) => state.ids);
  const [products, setProducts] = useState<Product[]>([]);
  useEffect(() => {
    recentlyViewedStore.getState().add(product.id);
  }, [product.id]);
  const others = ids.filter((id) => id !== product.id).slice(0, 8);
  const key = others.join(',');
  useEffect(() => {
    let cancelled = false;
    getProducts(key ? key.split(',') : [])
      .then((list) => !cancelled && setProducts(list))
      .catch(() => !cancelled && setProducts([]));
    return () => {
      cancelled = true;
    };
  }, [key, i18n.language]);
  return <ProductRow title={t('product.recentlyViewed')} products={products} />;
}
