import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useDocumentTitle } from '@/lib/head';
import { useLocalePath } from '@/lib/i18n';
import { productPath } from '@/lib/shop/paths';
import type { ProductDetail } from '../api/catalog';
import { BuyBox } from './buy-box';
import { productName } from '../utils/product-name';
import { ProductGallery } from '@/components/product/product-gallery';
import { ProductDescription } from '@/components/product/product-description';
import { CrossSellings, RecentlyViewed, Reviews, Specifications } from './product-sections';
import './product-detail.css';

type Tab = 'description' | 'specifications' | 'reviews';

/** The product page: gallery, buy box, description / specifications / reviews, cross-selling, recently viewed. */
export function ProductDetailPage({ detail, taxState, breadcrumb }: { detail: ProductDetail; taxState?: string; breadcrumb?: ReactNode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const { product } = detail;
  const name = productName(product);
  const [tab, setTab] = useState<Tab>('description');
  useDocumentTitle(product.translated?.metaTitle || name);

  const tabs: { id: Tab; label: string }[] = [
    { id: 'description', label: t('product.description') },
    { id: 'specifications', label: t('product.specifications') },
    { id: 'reviews', label: t('product.reviews') },
  ];

  return (
    <div className="container product-page">
      {breadcrumb}
      <div className="product-page__top">
        <ProductGallery key={product.id} product={product} name={name} />
        <BuyBox
          detail={detail}
          taxState={taxState}
          onVariant={(id, variant) =>
            void navigate(localePath(variant ? productPath({ id, seoUrls: variant.seoUrls }) : `/detail/${id}`), {
              replace: true,
              preventScrollReset: true,
            })
          }
        />
      </div>
      <section className="product-tabs">
        <div className="tabs" role="tablist" aria-label={name}>
          {tabs.map((entry) => (
            <button
              key={entry.id}
              type="button"
              role="tab"
              id={`tab-${entry.id}`}
              aria-selected={tab === entry.id}
              aria-controls={`panel-${entry.id}`}
              tabIndex={tab === entry.id ? 0 : -1}
              className="tabs__tab"
              onClick={() => setTab(entry.id)}
              onKeyDown={(event) => {
                const index = tabs.findIndex((candidate) => candidate.id === tab);
                const delta = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
                if (!delta) return;
                const next = tabs[(index + delta + tabs.length) % tabs.length]!;
                setTab(next.id);
                document.getElementById(`tab-${next.id}`)?.focus();
              }}
            >
              {entry.label}
            </button>
          ))}
        </div>
        <div className="tabs__panel" role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} tabIndex={0}>
          {tab === 'description' && <ProductDescription product={product} />}
          {tab === 'specifications' && <Specifications product={product} />}
          {tab === 'reviews' && <Reviews product={product} />}
        </div>
      </section>
      <CrossSellings product={product} />
      <RecentlyViewed product={product} />
    </div>
  );
}
