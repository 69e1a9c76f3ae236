import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useStore } from 'zustand';
import { useLocalePath } from '@/lib/i18n';
import { cartItemCount, cartStore } from '@/lib/shop/cart';
import { cartUi } from '@/lib/shop/cart-ui';
import { CartItem } from '@/components/cart/cart-item';
import { CartSummary } from '@/components/cart/cart-summary';
import './cart-sidebar.css';

/** The bag in the header: item count; opens the cart sidebar. */
export function CartButton() {
  const { t } = useTranslation();
  const cart = useStore(cartStore, (state) => state.cart);
  const count = cartItemCount(cart);
  useEffect(() => {
    cartStore.getState().refresh().catch(() => undefined);
  }, []);
  return (
    <button type="button" className="header-icon" aria-label={t('cart.open', { count })} onClick={() => cartUi.getState().open()}>
      <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
        <path d="M6 7h12l-1 13H7L6 7Z M9 7a3 3 0 0 1 6 0" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinejoin="round" />
      </svg>
      {count > 0 && (
        <span className="header-icon__count" aria-hidden="true" data-testid="cart-count">
          {count}
        </span>
      )}
    </button>
  );
}

/** The cart as a sidebar: items, total, on to the cart page. */
export function CartSidebar() {
  const { t } = useTranslation();
  const localePath = useLocalePath();
  const isOpen = useStore(cartUi, (state) => state.isOpen);
  const { cart, status } = useStore(cartStore);
  const { pathname } = useLocation();
  useEffect(() => cartUi.getState().close(), [pathname]);
  useEffect(() => {
    if (!isOpen) return;
    cartStore.getState().refresh().catch(() => undefined);
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && cartUi.getState().close();
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [isOpen]);
  if (!isOpen) return null;
  const items = cart?.lineItems ?? [];
  return (
    <div className="drawer-backdrop drawer-backdrop--right" onMouseDown={(event) => event.target === event.currentTarget && cartUi.getState().close()}>
      <aside className="drawer drawer--right cart-sidebar" role="dialog" aria-modal="true" aria-label={t('cart.title')}>
        <div className="drawer__header">
          <h2 className="drawer__title">{t('cart.title')}</h2>
          <button type="button" className="icon-button" aria-label={t('shop.close')} onClick={() => cartUi.getState().close()} autoFocus>
            ×
          </button>
        </div>
        {status === 'failed' && !cart ? (
          <p className="cart-sidebar__empty">{t('cart.loadFailed')}</p>
        ) : items.length === 0 ? (
          <div className="cart-sidebar__empty">
            <p>{status === 'loading' ? t('app.loading') : t('cart.empty')}</p>
            <button type="button" className="button" onClick={() => cartUi.getState().close()}>
              {t('cart.continueShopping')}
            </button>
          </div>
        ) : (
          <>
            <ul className="cart-sidebar__items">
              {items.map((item) => (
                <CartItem key={item.id} item={item} compact />
              ))}
            </ul>
            <footer className="cart-sidebar__footer">
              {cart && <CartSummary cart={cart} />}
              <Link className="button button--primary button--wide" to={localePath('/checkout')}>
                {t('cart.toCheckout')}
              </Link>
              <Link className="button button--wide" to={localePath('/checkout/cart')}>
                {t('cart.toCart')}
              </Link>
            </footer>
          </>
        )}
      </aside>
    </div>
  );
}
