import i18next from 'i18next';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { RatingStars } from '@/components/rating-stars';
import { Spinner } from '@/components/spinner';
import { WishlistToggle } from '@/components/wishlist-toggle';
import { useLocalePath } from '@/lib/i18n';
import { productPath } from '@/lib/shop/paths';
import { modalStore } from '@/lib/ui/modal';
import type { Product } from '../api/catalog';
import { productName } from '../utils/product-name';
import { CardPrice } from '@/components/product/product-price';
import './product-card.css';

const QuickView = lazy(() => import('./quick-view').then((module) => ({ default: module.QuickView })));


export function openQuickView(product: Product) {
  modalStore.getState().open(
    <Suspense fallback={<Spinner />}>
      <QuickView productId={product.id} />
    </Suspense>,
    { title: i18next.t('product.quickView'), size: 'large' },
  );
}

/** A product in a grid: image, name, rating, price, and a quick view. */
export function ProductCard({ product, headingLevel = 3 }: { product: Product; headingLevel?: 2 | 3 }) {
  const { t } = useTranslation();
  const localePath = useLocalePath();
  const href = localePath(productPath(product));
  const Heading = `h${headingLevel}` as const;
  const image = product.cover?.media;
  const name = productName(product);
  const soldOut = product.available === false || (product.isCloseout && (product.availableStock ?? 1) <= 0);
  return (
    <article className="product-card" data-testid="product-card">
      <div className="product-card__media">
        <Link to={href} tabIndex={-1} aria-hidden="true">
          {image?.url ? (
            <img src={image.url} alt={image.alt || name} loading="lazy" width={image.metaData?.width} height={image.metaData?.height} />
          ) : (
            <span className="product-card__placeholder">{t('product.noImage')}</span>
          )}
        </Link>
        <div className="product-card__badges">
          {product.calculatedPrice?.listPrice?.percentage ? (
            <span className="badge badge--sale">−{Math.round(product.calculatedPrice.listPrice.percentage)} %</span>
          ) : null}
          {soldOut ? <span className="badge badge--muted">{t('product.soldOut')}</span> : null}
        </div>
        <WishlistToggle productId={product.id} name={name} className="wishlist-toggle product-card__like" />
        <button type="button" className="product-card__quick" onClick={() => openQuickView(product)}>
          {t('product.quickView')}
          <span className="visually-hidden">: {name}</span>
        </button>
      </div>
      <div className="product-card__body">
        {product.manufacturer?.name && <p className="product-card__brand">{product.manufacturer.translated?.name || product.manufacturer.name}</p>}
        <Heading className="product-card__name">
          <Link to={href}>{name}</Link>
        </Heading>
        {product.ratingAverage ? <RatingStars rating={product.ratingAverage} /> : null}
        <CardPrice product={product} />
        {product.shippingFree ? <p className="product-card__note">{t('product.freeShipping')}</p> : null}
      </div>
    </article>
  );
}

export function ProductCardSkeleton() {
  return (
    <div className="product-card product-card--skeleton" aria-hidden="true">
      <div className="product-card__media skeleton" />
      <div className="product-card__body">
        <span className="skeleton skeleton--text" />
        <span className="skeleton skeleton--text skeleton--short" />
      </div>
    </div>
  );
}
