import { sanitizeRichText } from '@/lib/rich-text';
import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Schemas } from '@shopware/api-client/store-api-types';
import { ErrorView } from '@/components/error-view';
import { Spinner } from '@/components/spinner';
import { useRuntimeConfig } from '@/config/runtime';
import { reduceError } from '@/lib/api/errors';
import { formatPrice } from '@/lib/format';
import { modalStore } from '@/lib/ui/modal';
import { roomStoreClient } from '../api/store-client';
import './product-modal.css';

type Product = Schemas['Product'];

export interface ProductModalOptions {
  productId: string;
  contextToken?: string;
  /** Adds to the cart; without it the modal has no cart form (the guide's view). */
  onAddToCart?: (productId: string, quantity: number) => Promise<void>;
  /** Further actions beside the cart button (like, wishlist), rendered with the product's name. */
  actions?: (product: { id: string; name: string }) => ReactNode;
}

type Config = ReturnType<typeof useRuntimeConfig>;

/** A buyable variant of a product with variants, named by its options ("Size: M · Colour: blue"). */
export interface VariantChoice {
  id: string;
  label: string;
  available: boolean;
}

async function loadProduct(config: Config, productId: string, contextToken?: string): Promise<{ product: Product; hasVariants: boolean }> {
  const { data } = await roomStoreClient(config, contextToken).invoke('readProductDetail post /product/{productId}', {
    pathParams: { productId },
    body: { associations: { media: {}, manufacturer: {}, deliveryTime: {}, cover: { associations: { media: {} } } } },
  });
  const { product } = data;
  return { product, hasVariants: !!product.parentId || (data.configurator ?? []).length > 0 || (product.childCount ?? 0) > 0 };
}

export function variantLabel(variant: Pick<Product, 'options' | 'productNumber'>): string {
  const options = (variant.options ?? []).map((option) => {
    const group = option.group?.translated?.name || option.group?.name;
    const name = option.translated?.name || option.name;
    return group ? `${group}: ${name}` : name;
  });
  return options.length > 0 ? options.join(' · ') : variant.productNumber;
}

async function loadVariants(config: Config, parentId: string, contextToken?: string): Promise<VariantChoice[]> {
  const { data } = await roomStoreClient(config, contextToken).invoke('readProduct post /product', {
    body: {
      filter: [{ type: 'equals', field: 'parentId', value: parentId }],
      associations: { options: { associations: { group: {} } } },
      limit: 100,
    } as never,
  });
  return (data.elements ?? [])
    .map((variant) => ({ id: variant.id, label: variantLabel(variant), available: variant.available !== false }))
    .sort((a, b) => a.label.localeCompare(b.label));
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
  const [variants, setVariants] = useState<VariantChoice[]>([]);
  const [variantId, setVariantId] = useState('');
  const blockedReason = useId();
  const [error, setError] = useState<number | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [quantity, setQuantity] = useState(1);
  const [adding, setAdding] = useState<'idle' | 'busy' | 'added' | 'failed'>('idle');

  // A new load (another product or context, or a retry) has no error yet.
  const [loading, setLoading] = useState({ config, productId, contextToken, attempt });
  if (loading.config !== config || loading.productId !== productId || loading.contextToken !== contextToken || loading.attempt !== attempt) {
    setLoading({ config, productId, contextToken, attempt });
    setError(null);
  }

  useEffect(() => {
    let cancelled = false;
    loadProduct(config, productId, contextToken)
      .then(async ({ product: loaded, hasVariants }) => {
        // A product with variants is bought as one of them.
        const choices = hasVariants ? await loadVariants(config, loaded.parentId || loaded.id, contextToken) : [];
        if (cancelled) return;
        setProduct(loaded);
        setVariants(choices);
        const own = choices.find((choice) => choice.id === loaded.id && choice.available);
        setVariantId((own ?? choices.find((choice) => choice.available))?.id ?? '');
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
  const hasVariants = variants.length > 0;
  const available = hasVariants ? variants.some((choice) => choice.available) : product.available !== false && (!product.isCloseout || stock > 0);
  // A disabled "Add to cart" says why (#31 item 12): sold out, or no variant chosen yet.
  const blocked = !available ? t('product.cannotAddSoldOut') : hasVariants && !variantId ? t('product.chooseVariantFirst') : null;
  const price = product.calculatedPrice?.unitPrice ?? product.calculatedPrices?.[0]?.unitPrice ?? null;
  const manufacturer = product.manufacturer?.translated?.name || product.manufacturer?.name;

  async function add(event: FormEvent) {
    event.preventDefault();
    if (!onAddToCart) return;
    setAdding('busy');
    try {
      await onAddToCart(hasVariants ? variantId : productId, quantity);
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
        <p className="room-product__price">{formatPrice(price)}</p>
        <p className={`room-product__stock room-product__stock--${available ? 'ok' : 'out'}`}>
          {available ? t('product.inStockShort') : t('product.soldOut')}
        </p>
        {onAddToCart && (
          <form className="room-product__cart" onSubmit={(event) => void add(event)}>
            {hasVariants && (
              <label className="field room-product__variant">
                <span className="field__label">{t('room.variant')}</span>
                <select value={variantId} onChange={(event) => setVariantId(event.target.value)}>
                  {variants.map((choice) => (
                    <option key={choice.id} value={choice.id} disabled={!choice.available}>
                      {choice.available ? choice.label : t('room.variantSoldOut', { name: choice.label })}
                    </option>
                  ))}
                </select>
              </label>
            )}
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
            <button
              type="submit"
              className="button button--primary"
              disabled={!available || adding === 'busy' || (hasVariants && !variantId)}
              title={blocked ?? undefined}
              aria-describedby={blocked ? blockedReason : undefined}
            >
              {t('product.addToCart')}
            </button>
            {blocked && (
              <p className="room-product__blocked" id={blockedReason}>
                {blocked}
              </p>
            )}
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
          <div className="room-product__description rich-text" dangerouslySetInnerHTML={{ __html: sanitizeRichText(description) }} />
        )}
      </div>
    </div>
  );
}

/** Opens the product detail / quick view modal on the page's modal host. */
export function openProductModal(title: string, options: ProductModalOptions): void {
  modalStore.getState().open(<ProductModalBody key={options.productId} {...options} />, { title, size: 'large' });
}
