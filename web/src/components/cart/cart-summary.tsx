import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber, formatPrice } from '@/lib/format';
import { cartStore, type Cart } from '@/lib/shop/cart';
import { toast } from '@/lib/ui/toasts';
import { showCartErrors } from './cart-errors';
import './cart-summary.css';

/** Subtotal, shipping, taxes and total of a cart (`totalTestId` names the total for tests). */
export function CartSummary({ cart, totalTestId = 'cart-total' }: { cart: Cart; totalTestId?: string }) {
  const { t } = useTranslation();
  const shipping = (cart.deliveries ?? []).reduce((sum, delivery) => sum + (delivery.shippingCosts?.totalPrice ?? 0), 0);
  const promotions = (cart.lineItems ?? []).filter((item) => item.type === 'promotion');
  const discount = promotions.reduce((sum, item) => sum + (item.price?.totalPrice ?? 0), 0);
  const goods = (cart.price?.positionPrice ?? 0) - discount;
  return (
    <dl className="cart-summary">
      <div>
        <dt>{t('cart.subtotal')}</dt>
        <dd>{formatPrice(promotions.length > 0 ? goods : cart.price?.positionPrice)}</dd>
      </div>
      {promotions.length > 0 && (
        <div className="cart-summary__discount">
          <dt>{t('checkout.discount')}</dt>
          <dd data-testid="cart-discount">{formatPrice(discount)}</dd>
        </div>
      )}
      {(cart.deliveries ?? []).length > 0 && (
        <div>
          <dt>{t('cart.shipping')}</dt>
          <dd>{formatPrice(shipping)}</dd>
        </div>
      )}
      <div className="cart-summary__total">
        <dt>{t('cart.total')}</dt>
        <dd data-testid={totalTestId}>{formatPrice(cart.price?.totalPrice)}</dd>
      </div>
      {(cart.price?.calculatedTaxes ?? []).map((tax) => (
        <div key={tax.taxRate} className="cart-summary__tax">
          <dt>{t('cart.tax', { rate: formatNumber(tax.taxRate) })}</dt>
          <dd>{formatPrice(tax.tax)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Redeems a promotion code (a line item of type promotion). */
export function PromotionCode() {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = code.trim();
    if (!trimmed) return;
    setBusy(true);
    try {
      const cart = await cartStore.getState().addPromotionCode(trimmed);
      const errors = cartStore.getState().errors;
      const redeemed = (cart.lineItems ?? []).some((item) => item.type === 'promotion' && item.referencedId?.toLowerCase() === trimmed.toLowerCase());
      showCartErrors();
      if (redeemed && errors.length === 0) {
        toast({ content: t('cart.codeApplied', { code: trimmed }), variant: 'success' });
        setCode('');
      }
    } catch {
      toast({ content: t('errors.generic'), variant: 'danger' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="promotion-code" onSubmit={(event) => void submit(event)}>
      <label htmlFor="promotion-code" className="visually-hidden">
        {t('cart.promotionCode')}
      </label>
      <input id="promotion-code" placeholder={t('cart.promotionCode')} value={code} onChange={(event) => setCode(event.target.value)} autoComplete="off" />
      <button type="submit" className="button button--small" disabled={busy || !code.trim()}>
        {t('cart.applyCode')}
      </button>
    </form>
  );
}
