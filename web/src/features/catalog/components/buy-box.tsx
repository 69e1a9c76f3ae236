import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { RatingStars } from '@/components/rating-stars';
import { WishlistToggle } from '@/components/wishlist-toggle';
import { reduceError } from '@/lib/api/errors';
import { cartStore } from '@/lib/shop/cart';
import { cartUi } from '@/lib/shop/cart-ui';
import { toast } from '@/lib/ui/toasts';
import { getVariants, type ProductDetail } from '../api/catalog';
import { findVariant, selectedOptions, type VariantRef } from '../utils/variants';
import { productName } from '../utils/product-name';
import { DetailPrice } from '@/components/product/product-price';
import { VariantSelector } from './variant-selector';
import './buy-box.css';
import { AddToShoppingList } from './add-to-shopping-list';

/** Stock, delivery time, restock, clearance and free shipping of a product. */
export function Deliverability({ product }: { product: ProductDetail['product'] }) {
  const { t } = useTranslation();
  const stock = product.availableStock ?? product.stock ?? 0;
  const available = product.available !== false && (!product.isCloseout || stock > 0);
  const deliveryTime = product.deliveryTime?.translated?.name || product.deliveryTime?.name;
  return (
    <ul className="deliverability">
      {available ? (
        <li className="deliverability__state deliverability__state--ok" data-testid="deliverability">
          {deliveryTime ? t('product.inStock', { time: deliveryTime }) : t('product.inStockShort')}
        </li>
      ) : (
        <li className="deliverability__state deliverability__state--out" data-testid="deliverability">
          {t('product.soldOut')}
        </li>
      )}
      {available && stock > 0 && stock <= 5 ? <li className="deliverability__hint">{t('product.lowStock', { count: stock })}</li> : null}
      {!available && product.restockTime ? <li className="deliverability__hint">{t('product.restock', { count: product.restockTime })}</li> : null}
      {product.isCloseout && available ? <li className="deliverability__hint">{t('product.clearance')}</li> : null}
      {product.shippingFree ? <li className="deliverability__hint deliverability__hint--good">{t('product.freeShipping')}</li> : null}
    </ul>
  );
}

function quantityChoices(product: ProductDetail['product']): number[] {
  const min = Math.max(1, product.minPurchase ?? 1);
  const steps = Math.max(1, product.purchaseSteps ?? 1);
  const max = Math.max(min, Math.min(product.calculatedMaxPurchase ?? product.maxPurchase ?? 100, 100));
  const choices: number[] = [];
  for (let quantity = min; quantity <= max && choices.length < 50; quantity += steps) choices.push(quantity);
  return choices;
}

/** Name, price, variants, availability, quantity and add to cart. */
export function BuyBox({
  detail,
  onVariant,
  headingLevel = 1,
  taxState,
}: {
  detail: ProductDetail;
  onVariant: (variantId: string, variant?: VariantRef) => void;
  headingLevel?: 1 | 2;
  taxState?: string;
}) {
  const { t } = useTranslation();
  const { product, configurator } = detail;
  const [variants, setVariants] = useState<VariantRef[]>([]);
  const [switching, setSwitching] = useState(false);
  const [quantity, setQuantity] = useState(() => Math.max(1, product.minPurchase ?? 1));
  const [adding, setAdding] = useState(false);
  const parentId = product.parentId || ((product.childCount ?? 0) > 0 ? product.id : null);
  const Heading = `h${headingLevel}` as const;
  const name = productName(product);
  const stock = product.availableStock ?? product.stock ?? 0;
  const buyable = product.available !== false && (!product.isCloseout || stock > 0);
  // A disabled "Add to cart" says why (#31 item 12).
  const soldOutReason = useId();

  // Another product (a variant switch): its minimum quantity, and the switch is done.
  const productKey = `${product.id}:${product.minPurchase ?? 1}`;
  const [shownKey, setShownKey] = useState(productKey);
  if (shownKey !== productKey) {
    setShownKey(productKey);
    setQuantity(Math.max(1, product.minPurchase ?? 1));
    setSwitching(false);
  }

  useEffect(() => {
    if (!parentId || configurator.length === 0) return;
    let cancelled = false;
    getVariants(parentId)
      .then((list) => !cancelled && setVariants(list))
      .catch((error: unknown) => console.warn('could not load the variants', error));
    return () => {
      cancelled = true;
    };
  }, [parentId, configurator.length]);

  const select = async (groupId: string, optionId: string) => {
    setSwitching(true);
    let list = variants;
    if (list.length === 0 && parentId) {
      try {
        list = await getVariants(parentId);
        setVariants(list);
      } catch (error) {
        console.warn('could not load the variants', error);
      }
    }
    const current = selectedOptions(configurator, product.optionIds ?? []);
    const id = findVariant(list, configurator, current, groupId, optionId);
    if (id && id !== product.id) onVariant(id, list.find((variant) => variant.id === id));
    else {
      setSwitching(false);
      if (!id) toast({ content: t('product.variantUnavailable'), variant: 'warning' });
    }
  };

  const add = async (event: FormEvent) => {
    event.preventDefault();
    setAdding(true);
    try {
      await cartStore.getState().addProduct(product.id, quantity);
      const errors = cartStore.getState().consumeErrors();
      for (const error of errors) toast({ content: error.message, variant: error.level >= 20 ? 'danger' : 'warning' });
      if (errors.length === 0) toast({ content: t('cart.added', { name }), variant: 'success', actionText: t('cart.show'), actionFn: () => cartUi.getState().open() });
    } catch (error) {
      const reduced = reduceError(error);
      toast({ content: reduced.statusCode === 404 ? t('errorPages.productNotFound') : t('errors.generic'), variant: 'danger' });
    } finally {
      setAdding(false);
    }
  };

  return (
    <div className="buy-box">
      {product.manufacturer?.name && <p className="buy-box__brand">{product.manufacturer.translated?.name || product.manufacturer.name}</p>}
      <Heading className="buy-box__name">{name}</Heading>
      {product.ratingAverage ? (
        <p className="buy-box__rating">
          <RatingStars rating={product.ratingAverage} />
        </p>
      ) : null}
      <DetailPrice product={product} taxState={taxState} />
      <VariantSelector groups={configurator} optionIds={product.optionIds ?? []} variants={variants} onSelect={(groupId, optionId) => void select(groupId, optionId)} busy={switching} />
      <Deliverability product={product} />
      <form className="buy-box__form" onSubmit={(event) => void add(event)}>
        <label className="select select--quantity">
          <span className="visually-hidden">{t('product.quantity')}</span>
          <select value={quantity} onChange={(event) => setQuantity(Number(event.target.value))} disabled={!buyable}>
            {quantityChoices(product).map((choice) => (
              <option key={choice} value={choice}>
                {choice}
              </option>
            ))}
          </select>
        </label>
        <button
          type="submit"
          className="button button--primary button--wide"
          disabled={!buyable || adding}
          title={buyable ? undefined : t('product.cannotAddSoldOut')}
          aria-describedby={buyable ? undefined : soldOutReason}
        >
          {t('product.addToCart')}
        </button>
        <WishlistToggle productId={product.parentId || product.id} name={name} className="wishlist-toggle wishlist-toggle--large" />
      </form>
      <AddToShoppingList productId={product.id} quantity={quantity} />
      {buyable ? null : (
        <p className="buy-box__note" id={soldOutReason}>
          {t('product.cannotAddSoldOut')}
        </p>
      )}
      {(product.minPurchase ?? 1) > 1 ? <p className="buy-box__note">{t('product.minPurchase', { count: product.minPurchase ?? 1 })}</p> : null}
      <p className="buy-box__number" data-testid="product-number">{t('product.productNumber', { number: product.productNumber })}</p>
    </div>
  );
}
