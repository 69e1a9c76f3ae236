import { createContext, useContext, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Schemas } from '@shopware/api-client/store-api-types';
import { useRuntimeConfig } from '@/config/runtime';
import { CardPrice, DetailPrice } from '@/components/product/product-price';
import { ProductGallery } from '@/components/product/product-gallery';
import { ProductDescription } from '@/components/product/product-description';
import type { CmsElementProps, CmsRenderContext } from '@/components/cms/context';
import { componentName } from '@/components/cms/mapping';
import { roomStoreClient } from '../api/store-client';
import { isSoldOut } from './sold-out';
import './room-cms.css';

type Product = Schemas['Product'];
type Listing = Schemas['ProductListingResult'];

/** Listing slides page through the room's product listing in pages of this size. */
export const LISTING_PAGE_SIZE = 36;

/** What a slide's product elements need from the room they are shown in. */
export interface RoomSlideTools {
  contextToken?: string;
  /** The presentation page (navigation `groupId`) of the slide: its listing pages come by it. */
  pageId?: string;
  /** Opens the room's product modal. */
  onOpen: (productId: string, name: string) => void;
  /** Actions beside each product (the attendee's like button). */
  actions?: (product: { id: string; name: string }) => ReactNode;
}

const RoomSlideContext = createContext<RoomSlideTools>({ onOpen: () => undefined });

export const RoomSlideProvider = RoomSlideContext.Provider;

const nameOf = (product: Pick<Product, 'name' | 'translated'>) => product.translated?.name || product.name;
const dataOf = <T,>(slot: CmsElementProps['slot']) => (slot.data ?? {}) as T;
const configOf = (slot: CmsElementProps['slot'], key: string) =>
  ((slot.config ?? {}) as Record<string, { value?: unknown }>)[key]?.value ??
  ((slot.translated?.config ?? {}) as Record<string, { value?: unknown }>)[key]?.value;

/** A product of a slide: picture, name, price; its picture and name open the product modal. */
export function RoomProductCard({ product }: { product: Product }) {
  const { t } = useTranslation();
  const { onOpen, actions } = useContext(RoomSlideContext);
  const name = nameOf(product);
  const image = product.cover?.media;
  const soldOut = isSoldOut(product);
  return (
    <article className="room-card" data-testid="room-product" data-product-id={product.id} data-sold-out={soldOut} aria-label={name}>
      <button type="button" className="room-card__open" aria-label={t('room.detailsOf', { name })} onClick={() => onOpen(product.id, name)}>
        <span className="room-card__media">
          {image?.url ? <img src={image.url} alt="" loading="lazy" /> : <span className="product-card__placeholder">{t('product.noImage')}</span>}
          {soldOut && <SoldOutBadge />}
        </span>
        <span className="room-card__name">{name}</span>
      </button>
      <div className="room-card__footer">
        <CardPrice product={product} />
        {actions && <span className="room-card__actions">{actions({ id: product.id, name })}</span>}
      </div>
    </article>
  );
}

/** The mark of a product that can no longer be bought, on the slide itself. */
function SoldOutBadge() {
  const { t } = useTranslation();
  return (
    <span className="room-sold-out" data-testid="sold-out">
      {t('product.soldOut')}
    </span>
  );
}

function ProductGrid({ products, label }: { products: Product[]; label: string }) {
  return (
    <ul className="room-grid" aria-label={label}>
      {products.map((product) => (
        <li key={product.id}>
          <RoomProductCard product={product} />
        </li>
      ))}
    </ul>
  );
}

function RoomProductBox({ slot }: CmsElementProps) {
  const product = dataOf<{ product?: Product }>(slot).product;
  return product ? <RoomProductCard product={product} /> : null;
}

function RoomProductSlider({ slot }: CmsElementProps) {
  const { t } = useTranslation();
  const products = dataOf<{ products?: Product[] }>(slot).products ?? [];
  const title = configOf(slot, 'title');
  const heading: string = typeof title === 'string' && title ? title : t('room.slideProducts');
  return (
    <section className="room-slider">
      <h3 className="section-title">{heading}</h3>
      <ul className="room-slider__track" aria-label={heading}>
        {products.map((product) => (
          <li key={product.id}>
            <RoomProductCard product={product} />
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The page count of a listing of `total` products. */
export function pageCount(total: number, limit = LISTING_PAGE_SIZE): number {
  return Math.max(1, Math.ceil(total / limit));
}

/** A listing slide: its products in pages of 36 from `POST /dsr/product-listing`. */
function RoomProductListing({ slot }: CmsElementProps) {
  const { t } = useTranslation();
  const config = useRuntimeConfig();
  const { contextToken, pageId } = useContext(RoomSlideContext);
  const initial = dataOf<{ listing?: Listing }>(slot).listing ?? null;
  const [page, setPage] = useState(1);
  const [listing, setListing] = useState<Listing | null>(initial);
  const [failed, setFailed] = useState(false);

  // Another page (or slide, or context): page 1 shows the slide's own listing; another
  // page is loaded, with no failure yet.
  const [shown, setShown] = useState({ config, contextToken, pageId, page, initial });
  if (shown.config !== config || shown.contextToken !== contextToken || shown.pageId !== pageId || shown.page !== page || shown.initial !== initial) {
    setShown({ config, contextToken, pageId, page, initial });
    if (page === 1 && initial) setListing(initial);
    else if (pageId) setFailed(false);
  }

  useEffect(() => {
    if ((page === 1 && initial) || !pageId) return;
    let cancelled = false;
    roomStoreClient(config, contextToken)
      .invoke('dsrProductListing post /dsr/product-listing', {
        body: { currentPageGroupId: pageId, page, limit: LISTING_PAGE_SIZE, loadAllIds: false } as never,
      })
      .then(({ data }) => !cancelled && setListing(data as unknown as Listing))
      .catch(() => !cancelled && setFailed(true));
    return () => {
      cancelled = true;
    };
  }, [config, contextToken, pageId, page, initial]);

  const products = listing?.elements ?? [];
  const pages = pageCount(listing?.total ?? products.length, listing?.limit || LISTING_PAGE_SIZE);
  return (
    <section className="room-listing">
      {failed && (
        <p className="alert" role="alert">
          {t('room.productsFailed')}
        </p>
      )}
      {products.length === 0 && !failed ? <p className="room-empty">{t('room.listingEmpty')}</p> : <ProductGrid products={products} label={t('room.slideProducts')} />}
      {pages > 1 && (
        <nav className="pagination" aria-label={t('room.listingPages')}>
          <button type="button" className="button button--small" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            {t('room.previousPage')}
          </button>
          <span>{t('room.pageOf', { page, pages })}</span>
          <button type="button" className="button button--small" disabled={page >= pages} onClick={() => setPage(page + 1)}>
            {t('room.nextPage')}
          </button>
        </nav>
      )}
    </section>
  );
}

function RoomProductName({ slot }: CmsElementProps) {
  const data = dataOf<{ product?: Product; content?: unknown }>(slot);
  const content = data.product ? nameOf(data.product) : typeof data.content === 'string' ? data.content : configOf(slot, 'content');
  return typeof content === 'string' && content ? <h3 className="buy-box__name">{content}</h3> : null;
}

/** The product detail slide's buy box: price and the room's own actions instead of the shop's form. */
function RoomBuyBox({ slot }: CmsElementProps) {
  const { t } = useTranslation();
  const { onOpen, actions } = useContext(RoomSlideContext);
  const product = dataOf<{ product?: Product }>(slot).product;
  if (!product) return null;
  const name = nameOf(product);
  return (
    <div className="room-buy-box" data-testid="room-product" data-product-id={product.id}>
      <p className="room-buy-box__number">{t('product.productNumber', { number: product.productNumber })}</p>
      <DetailPrice product={product} />
      {isSoldOut(product) && <SoldOutBadge />}
      <div className="highlight__actions">
        <button type="button" className="button button--primary" onClick={() => onOpen(product.id, name)}>
          {t('room.showDetails')}
          <span className="visually-hidden">: {name}</span>
        </button>
        {actions?.({ id: product.id, name })}
      </div>
    </div>
  );
}

function RoomGallery({ slot }: CmsElementProps) {
  const product = dataOf<{ product?: Product }>(slot).product;
  return product ? <ProductGallery product={product} name={nameOf(product)} /> : null;
}

function RoomDescription({ slot }: CmsElementProps) {
  const { t } = useTranslation();
  const product = dataOf<{ product?: Product }>(slot).product;
  if (!product) return null;
  return (
    <div className="stack">
      <h3 className="section-title">{t('product.description')}</h3>
      <ProductDescription product={product} />
    </div>
  );
}

/** An element the room does not show, named. */
export function NotInPresentations({ type }: { type: string }) {
  const { t } = useTranslation();
  return (
    <div className="cms-unresolved" role="note">
      {t('room.notSupported', { name: componentName('element', type) })}
    </div>
  );
}

const Nothing = () => null;

/** The shop's CMS rendering with the room's product elements. */
export const ROOM_CMS_CONTEXT: CmsRenderContext = {
  elements: {
    'product-box': RoomProductBox,
    'product-slider': RoomProductSlider,
    'product-listing': RoomProductListing,
    'product-name': RoomProductName,
    'buy-box': RoomBuyBox,
    'image-gallery-product': RoomGallery,
    'product-description-reviews': RoomDescription,
    'sidebar-filter': Nothing,
  } satisfies Record<string, ComponentType<CmsElementProps>>,
  unsupported: NotInPresentations,
};
