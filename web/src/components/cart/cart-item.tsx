import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatPrice } from '@/lib/format';
import { useLocalePath } from '@/lib/i18n';
import { cartStore, quantityRange, type LineItem } from '@/lib/shop/cart';
import { showCartErrors } from './cart-errors';
import { lineItemOptions } from '@/lib/shop/line-item-options';
import './cart-item.css';

/** One line of the cart: product, options, quantity within its limits, price, remove. */
export function CartItem({ item, compact = false }: { item: LineItem; compact?: boolean }) {
  const { t } = useTranslation();
  const localePath = useLocalePath();
  const [busy, setBusy] = useState(false);
  // The guide's discount (live room) is named in the viewer's language, not the shop's label.
  const name = item.type === 'discount' ? t('cart.guideDiscount') : (item.label ?? '');
  const isProduct = item.type === 'product';
  const { min, max, step } = quantityRange(item);
  const quantity = item.quantity ?? 1;
  const options = lineItemOptions(item);

  const act = async (work: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await work();
    } catch {
      // The store keeps the last good cart; the message says what failed.
    } finally {
      showCartErrors();
      setBusy(false);
    }
  };

  const href = isProduct && item.referencedId ? localePath(`/detail/${item.referencedId}`) : null;
  return (
    <li className={compact ? 'cart-item cart-item--compact' : 'cart-item'} aria-busy={busy} data-testid="cart-item">
      <div className="cart-item__media">
        {item.cover?.url ? (
          <img src={item.cover.url} alt="" loading="lazy" />
        ) : (
          <span className="cart-item__placeholder" aria-hidden="true">
            {item.type === 'promotion' || item.type === 'discount' ? '%' : ''}
          </span>
        )}
      </div>
      <div className="cart-item__body">
        <p className="cart-item__name">{href ? <Link to={href}>{name}</Link> : name}</p>
        {options.length > 0 && <p className="cart-item__options">{options.join(' · ')}</p>}
        {item.type === 'promotion' && <p className="cart-item__options">{t('cart.promotion')}</p>}
        {item.states?.includes('is-download') && <p className="cart-item__options">{t('cart.download')}</p>}
        {isProduct && (
          <div className="stepper" role="group" aria-label={t('cart.quantityOf', { name })}>
            <button type="button" aria-label={t('cart.decrease', { name })} disabled={busy || quantity - step < min} onClick={() => void act(() => cartStore.getState().changeQuantity(item.id, quantity - step))}>
              −
            </button>
            <output aria-live="polite">{quantity}</output>
            <button type="button" aria-label={t('cart.increase', { name })} disabled={busy || quantity + step > max} onClick={() => void act(() => cartStore.getState().changeQuantity(item.id, quantity + step))}>
              +
            </button>
          </div>
        )}
      </div>
      <div className="cart-item__side">
        <p className="cart-item__price">{formatPrice(item.price?.totalPrice)}</p>
        {quantity > 1 && item.price && <p className="cart-item__unit">{`${quantity} × ${formatPrice(item.price.unitPrice)}`}</p>}
        {item.removable !== false && (
          <button type="button" className="icon-button cart-item__remove" disabled={busy} aria-label={t('cart.remove', { name })} onClick={() => void act(() => cartStore.getState().remove(item.id))}>
            ×
          </button>
        )}
      </div>
    </li>
  );
}
