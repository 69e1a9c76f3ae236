import { describe, expect, it } from 'vitest';
import { blockingKeyOf, checkoutBlockers, hasDigitalGoods, paymentTarget, paymentUrls, type CheckoutState } from './checkout-rules';

const product = { id: 'p', type: 'product', states: ['is-physical'] } as const;
const download = { id: 'd', type: 'product', states: ['is-download'] } as const;

const ready: CheckoutState = {
  cart: { lineItems: [product] as never },
  hasCustomer: true,
  shippingMethodId: 's',
  paymentMethodId: 'p',
  tos: true,
  waiver: false,
  blockingErrors: 0,
};

describe('checkout rules', () => {
  it('lets a complete checkout through', () => {
    expect(checkoutBlockers(ready)).toEqual([]);
  });

  it('needs a customer, something to order, methods and the terms', () => {
    expect(checkoutBlockers({ ...ready, hasCustomer: false })).toEqual(['login']);
    expect(checkoutBlockers({ ...ready, cart: { lineItems: [{ id: 'x', type: 'promotion' }] as never } })).toEqual(['empty']);
    expect(checkoutBlockers({ ...ready, shippingMethodId: null, paymentMethodId: '' })).toEqual(['shipping', 'payment']);
    expect(checkoutBlockers({ ...ready, tos: false })).toEqual(['tos']);
    expect(checkoutBlockers({ ...ready, blockingErrors: 1 })).toEqual(['cart-error']);
  });

  it('asks for the waiver of the cancellation right only with digital goods', () => {
    const digital = { ...ready, cart: { lineItems: [product, download] as never } };
    expect(hasDigitalGoods(digital.cart)).toBe(true);
    expect(hasDigitalGoods(ready.cart)).toBe(false);
    expect(checkoutBlockers(digital)).toEqual(['waiver']);
    expect(checkoutBlockers({ ...digital, waiver: true })).toEqual([]);
    expect(checkoutBlockers({ ...ready, waiver: true })).toEqual([]);
  });

  it('recognises the blocking cart errors with and without an id suffix', () => {
    expect(blockingKeyOf({ key: 'shipping-address-blocked' })).toBe('shipping-address-blocked');
    expect(blockingKeyOf({ key: 'billing-address-invalid-0190' })).toBe('billing-address-invalid');
    expect(blockingKeyOf({ key: 'product-not-found' })).toBe('product-not-found');
    expect(blockingKeyOf({ key: 'promotion-not-found' })).toBeNull();
  });

  it('builds the result page URLs under the locale prefix', () => {
    expect(paymentUrls('https://shop.test', '/de-DE', 'o1')).toEqual({
      success: '/de-DE/checkout/success/o1',
      finishUrl: 'https://shop.test/de-DE/checkout/success/o1/paid',
      errorUrl: 'https://shop.test/de-DE/checkout/success/o1/unpaid',
    });
    expect(paymentUrls('http://x', '', 'o2').success).toBe('/checkout/success/o2');
  });

  it('follows the payment redirect when there is one, else shows the confirmation', () => {
    expect(paymentTarget('https://pay.test/p/1', '/checkout/success/o')).toEqual({ kind: 'external', url: 'https://pay.test/p/1' });
    expect(paymentTarget(null, '/checkout/success/o')).toEqual({ kind: 'internal', path: '/checkout/success/o' });
    expect(paymentTarget('', '/checkout/success/o')).toEqual({ kind: 'internal', path: '/checkout/success/o' });
    expect(paymentTarget('javascript:alert(1)', '/x')).toEqual({ kind: 'internal', path: '/x' });
    expect(paymentTarget('//evil.test', '/x')).toEqual({ kind: 'internal', path: '/x' });
  });
});
