import DOMPurify from 'dompurify';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Schemas } from '@shopware/api-client/store-api-types';
import { ErrorView } from '@/components/error-view';
import { Spinner } from '@/components/spinner';
import { useRuntimeConfig } from '@/config/runtime';
import { reduceError } from '@/lib/api/errors';
import { createStoreClient } from '@/lib/api/shop';
import { formatPrice } from '@/lib/format';
import { modalStore } from '@/lib/ui/modal';

type Product = Schemas['Product'];

export interface ProductModalOptions {
  productId: string;
  contextToken?: string;
  /** Adds to the cart; without it the modal has no cart form (the guide's view). */
  onAddToCart?: (productId: string, quantity: number) => Promise<void>;
  /** Further actions beside the cart button (like, wishlist), rendered with the product's name. */
  actions?: (product: { id: string; name: string }) => ReactNode;
}

async function loadProduct(config: ReturnType<typeof useRuntimeConfig>, productId: string, contextToken?: string): Promise<Product> {
  const { data } = await createStoreClient(config, contextToken).invoke('readProductDetail post /product/{productId}', {
    pathParams: { productId },
    body: { associations: { media: {}, manufacturer: {}, deliveryTime: {}, cover: { associations: { media: {} } } } } as never,
  });
  return data.product;
}

function quantities(product: Product): number[] {
  const min = Math.max(1, product.minPurchase ?? 1);
  const step = Math.max(1, product.purchaseSteps ?? 1);
  const max = Math.max(min, Math.min(product.calculatedMaxPurchase ?? product.maxPurchase ?? 20, 20));
  const list: number[] = [];
  for (let quantity = min; quantity <= max; quantity += step) list.push(quantity);
  return list;
}

/** The product detail / quick view of the room: picture, price, availability, description, cart and like. */
function ProductModalBody({ productId, contextToken, onAddToCart, actions }: ProductModalOptions) {
  const { t } = useTranslation();
  const config = useRuntimeConfig();
  const [product, setProduct] = useState<Product | null>(null);
  const [error, setError] = useState<number | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [quantity, setQuantity] = useState(1);
  const [adding, setAdding] = useState<'idle' | 'busy' | 'added' | 'failed'>('idle');

  useEffect(() => {
    let cancelled = false;
    setError(null);
    loadProduct(config, productId, contextToken)
      .then((loaded) => {
        if (cancelled) return;
        setProduct(loaded);
        setQuantity(Math.max(1, loaded.minPurchase ?? 1));
      })
      .catch((failure: unknown) => !cancelled && setError(reduceError(failure).statusCode));
    return () => {
      cancelled = true;
    };
  }, [config, productId, contextToken, attempt]);

  if (error !== null) return <ErrorView statusCode={error} onRetry={() => setAttempt((value) => value + 1)} />;
  if (!product) return <Spinner label={t('product.loadingProduct')} />;

  const name = product.translated?.name || product.name || product.productNumber;
  const description = product.translated?.description || product.description || '';
  const image = product.cover?.media?.url ?? product.media?.[0]?.media?.url ?? null;
  const stock = product.availableStock ?? product.stock ?? 0;
  const available = product.available !== false && (!product.isCloseout || stock > 0);
  const price = product.calculatedPrice?.unitPrice ?? product.calculatedPrices?.[0]?.unitPrice ?? null;
  const manufacturer = product.manufacturer?.translated?.name || product.manufacturer?.name;

  async function add(event: FormEvent) {
    event.preventDefault();
    if (!onAddToCart) return;
    setAdding('busy');
    try {
      await onAddToCart(productId, quantity);
      setAdding('added');
    } catch {
      setAdding('failed');
    }
  }

  return (
    <div className="room-product" data-testid="room-product" data-product-id={product.id}>
      <div className="room-product__media">
        {image ? <img src={image} alt="" /> : <span className="room-product__placeholder">{t('product.noImage')}</span>}
      </div>
      <div className="room-product__body">
        {manufacturer && <p className="room-product__brand">{manufacturer}</p>}
        <h3 className="room-product__name">{name}</h3>
        <p className="room-product__price">{formatPrice(price)}</p>
        <p className={`room-product__stock room-product__stock--${available ? 'ok' : 'out'}`}>
          {available ? t('product.inStockShort') : t('product.soldOut')}
        </p>
        {onAddToCart && (
          <form className="room-product__cart" onSubmit={add}>
            <label className="select select--quantity">
              <span className="visually-hidden">{t('product.quantity')}</span>
              <select value={quantity} onChange={(event) => setQuantity(Number(event.target.value))} disabled={!available}>
                {quantities(product).map((choice) => (
                  <option key={choice} value={choice}>
                    {choice}
                  </option>
                ))}
              </select>
            </label>
            <button type="submit" className="button button--primary" disabled={!available || adding === 'busy'}>
              {t('product.addToCart')}
            </button>
          </form>
        )}
        {actions && <div className="room-product__actions">{actions({ id: product.id, name })}</div>}
        <p className="room-product__feedback" role="status">
          {adding === 'added' ? t('room.addedToCart', { name }) : ''}
        </p>
        {adding === 'failed' && (
          <p className="alert" role="alert">
            {t('room.addToCartFailed')}
          </p>
        )}
        <p className="room-product__number">{t('product.productNumber', { number: product.productNumber })}</p>
        {description && (
          <div className="room-product__description rich-text" dangerouslySetInnerHTML={{ __html: DOMPurify.sanitize(description) }} />
        )}
      </div>
    </div>
  );
}

/** Opens the product detail / quick view modal on the page's modal host. */
export function openProductModal(title: string, options: ProductModalOptions): void {
  modalStore.getState().open(<ProductModalBody key={options.productId} {...options} />, { title, size: 'large' });
}
