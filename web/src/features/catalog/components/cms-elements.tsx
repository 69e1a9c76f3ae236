import type { ComponentType } from 'react';
import type { Schemas } from '@shopware/api-client/store-api-types';
import { useTranslation } from 'react-i18next';
import { getCategoryListing, type ListingResult, type Product, type PropertyGroup } from '../api/catalog';
import { BuyBox } from './buy-box';
import { productName } from '../utils/product-name';
import { ProductCard } from './product-card';
import { ProductGallery } from '@/components/product/product-gallery';
import { ProductListing } from './product-listing';
import { ProductDescription } from '@/components/product/product-description';
import { CrossSellings, ProductRow, Reviews } from './product-sections';
import { useNavigate } from 'react-router';
import { useLocalePath } from '@/lib/i18n';
import './cms-elements.css';

/** What a CMS slot hands a catalogue element (the CMS feature's element props, structurally). */
export interface SlotProps {
  slot: Schemas['CmsSlot'];
  block: Schemas['CmsBlock'];
}

const dataOf = <T,>(slot: SlotProps['slot']) => (slot.data ?? {}) as T;
const configOf = (slot: SlotProps['slot'], key: string) =>
  ((slot.config ?? {}) as Record<string, { value?: unknown }>)[key]?.value ?? ((slot.translated?.config ?? {}) as Record<string, { value?: unknown }>)[key]?.value;

function ProductBox({ slot }: SlotProps) {
  const product = dataOf<{ product?: Product }>(slot).product;
  return product ? <ProductCard product={product} /> : null;
}

/** A product slider; without a title of its own it has no heading (the page's text around it is the heading). */
function ProductSlider({ slot }: SlotProps) {
  const products = dataOf<{ products?: Product[] }>(slot).products ?? [];
  const title = configOf(slot, 'title');
  return <ProductRow title={typeof title === 'string' ? title : undefined} products={products} />;
}

/** Builds the listing element for a category: its products come from `/product-listing/{id}`. */
export function productListingElement(categoryId: string | undefined): ComponentType<SlotProps> {
  return function CmsProductListing({ slot }: SlotProps) {
    const { t } = useTranslation();
    const initial = dataOf<{ listing?: ListingResult }>(slot).listing ?? null;
    if (!categoryId) return initial ? <ProductListing initial={initial} fetchListing={() => Promise.resolve(initial)} showFilters={false} /> : null;
    return (
      <ProductListing
        initial={initial}
        fetchListing={(criteria) => getCategoryListing(categoryId, criteria)}
        emptyText={t('errorPages.noProductsFound')}
      />
    );
  };
}

function ProductName({ slot }: SlotProps) {
  const product = dataOf<{ product?: Product }>(slot).product;
  const content = configOf(slot, 'content');
  return <h1 className="buy-box__name">{product ? productName(product) : typeof content === 'string' ? content : ''}</h1>;
}

function CmsBuyBox({ slot }: SlotProps) {
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const data = dataOf<{ product?: Product; configuratorSettings?: PropertyGroup[] }>(slot);
  if (!data.product) return null;
  return (
    <BuyBox
      detail={{ product: data.product, configurator: data.configuratorSettings ?? [] }}
      headingLevel={2}
      onVariant={(id) => void navigate(localePath(`/detail/${id}`))}
    />
  );
}

function CmsGallery({ slot }: SlotProps) {
  const product = dataOf<{ product?: Product }>(slot).product;
  return product ? <ProductGallery product={product} name={productName(product)} /> : null;
}

function DescriptionReviews({ slot }: SlotProps) {
  const { t } = useTranslation();
  const product = dataOf<{ product?: Product }>(slot).product;
  if (!product) return null;
  return (
    <div className="stack">
      <h2 className="section-title">{t('product.description')}</h2>
      <ProductDescription product={product} />
      <h2 className="section-title">{t('product.reviews')}</h2>
      <Reviews product={product} />
    </div>
  );
}

function CrossSelling({ slot }: SlotProps) {
  const product = dataOf<{ product?: Product }>(slot).product;
  return product ? <CrossSellings product={product} /> : null;
}

/** The listing element shows its own filters; the separate filter element has nothing left to show. */
const SidebarFilter = () => null;

/** The catalogue's CMS elements, for the page of `categoryId` (if it is a category page). */
export function catalogCmsElements(categoryId?: string): Record<string, ComponentType<SlotProps>> {
  return {
    'product-box': ProductBox,
    'product-slider': ProductSlider,
    'product-listing': productListingElement(categoryId),
    'product-name': ProductName,
    'buy-box': CmsBuyBox,
    'image-gallery-product': CmsGallery,
    'product-description-reviews': DescriptionReviews,
    'cross-selling': CrossSelling,
    'sidebar-filter': SidebarFilter,
  };
}
