import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useStore } from 'zustand';
import { Spinner } from '@/components/spinner';
import { useDocumentTitle } from '@/lib/head';
import { useLocalePath } from '@/lib/i18n';
import { cartStore } from '@/lib/shop/cart';
import { CartItem } from '@/components/cart/cart-item';
import { showCartErrors } from '@/components/cart/cart-errors';
import { CartSummary, PromotionCode } from '@/components/cart/cart-summary';
import { EmptyShopping } from '@/components/empty-state';
import './cart-page.css';

/** The cart page: every line, promotion code, summary. */
export function CartPage() {
  const { t } = useTranslation();
  const localePath = useLocalePath();
  const { cart, status } = useStore(cartStore);
  useDocumentTitle(t('cart.title'));
  useEffect(() => {
    cartStore
      .getState()
      .refresh()
      .then(showCartErrors)
      .catch(() => undefined);
  }, []);

  const items = cart?.lineItems ?? [];
  return (
    <div className="container cart-page">
      <header className="page-header">
        <h1 className="page-title">{t('cart.title')}</h1>
      </header>
      {!cart && status !== 'failed' ? (
        <Spinner />
      ) : !cart ? (
        <div className="empty-state">
          <p>{t('cart.loadFailed')}</p>
        </div>
      ) : items.length === 0 ? (
        <EmptyShopping text={t('cart.empty')} />
      ) : (
        <div className="cart-page__grid">
          <ul className="cart-page__items">
            {items.map((item) => (
              <CartItem key={item.id} item={item} />
            ))}
          </ul>
          <aside className="cart-page__aside">
            <PromotionCode />
            <CartSummary cart={cart} />
            <Link className="button button--primary button--wide" to={localePath('/checkout')}>
              {t('cart.toCheckout')}
            </Link>
          </aside>
        </div>
      )}
    </div>
  );
}
