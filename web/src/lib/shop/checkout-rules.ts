import type { Cart, CartError } from '@/lib/shop/cart';

/** Whether the cart holds digital goods (a line item in state `is-download`). */
export function hasDigitalGoods(cart: Pick<Cart, 'lineItems'> | null | undefined): boolean {
  return (cart?.lineItems ?? []).some((item) => item.states?.includes('is-download'));
}

/** Whether the cart holds something to order (a product line item). */
export function hasProducts(cart: Pick<Cart, 'lineItems'> | null | undefined): boolean {
  return (cart?.lineItems ?? []).some((item) => item.type === 'product');
}

/** Cart error keys that block the order and the text each shows (spec section 8). */
export const BLOCKING_ERRORS = {
  'shipping-address-blocked': 'checkout.shippingAddressBlocked',
  'billing-address-blocked': 'checkout.billingAddressBlocked',
  'shipping-address-invalid': 'checkout.shippingAddressInvalid',
  'billing-address-invalid': 'checkout.billingAddressInvalid',
  'product-not-found': 'errorPages.productNotFound',
} as const;

export type BlockingKey = (typeof BLOCKING_ERRORS)[keyof typeof BLOCKING_ERRORS];

/** The error's key without its subject suffix (`shipping-address-blockedDE`). */
export function blockingKeyOf(error: Pick<CartError, 'key'>): keyof typeof BLOCKING_ERRORS | null {
  const known = Object.keys(BLOCKING_ERRORS) as (keyof typeof BLOCKING_ERRORS)[];
  return known.find((key) => error.key.startsWith(key)) ?? null;
}

export type Blocker = 'login' | 'empty' | 'tos' | 'waiver' | 'shipping' | 'payment' | 'cart-error';

export interface CheckoutState {
  cart: Pick<Cart, 'lineItems' | 'errors'> | null;
  /** A customer (also a guest) is in the session. */
  hasCustomer: boolean;
  shippingMethodId: string | null | undefined;
  paymentMethodId: string | null | undefined;
  tos: boolean;
  waiver: boolean;
  /** Errors of level error (20) that block the order. */
  blockingErrors: number;
}

/**
 * What keeps the order from being placed (spec section 5): a customer is needed,
 * something to order, shipping and payment methods, the terms and, with digital goods,
 * the waiver of the cancellation right; and no blocking cart error.
 */
export function checkoutBlockers(state: CheckoutState): Blocker[] {
  const blockers: Blocker[] = [];
  if (!state.hasCustomer) blockers.push('login');
  if (!hasProducts(state.cart)) blockers.push('empty');
  if (!state.shippingMethodId) blockers.push('shipping');
  if (!state.paymentMethodId) blockers.push('payment');
  if (state.blockingErrors > 0) blockers.push('cart-error');
  if (!state.tos) blockers.push('tos');
  if (hasDigitalGoods(state.cart) && !state.waiver) blockers.push('waiver');
  return blockers;
}

/** The result pages of an order under the locale prefix, as absolute URLs for the payment provider. */
export function paymentUrls(origin: string, prefix: string, orderId: string): { success: string; finishUrl: string; errorUrl: string } {
  const success = `${prefix}/checkout/success/${orderId}`;
  return { success, finishUrl: `${origin}${success}/paid`, errorUrl: `${origin}${success}/unpaid` };
}

/**
 * Where to go after the payment was handled: the provider's page when the shop
 * named one (an external URL: a full page load), else the order confirmation.
 */
export function paymentTarget(redirectUrl: string | null | undefined, successPath: string): { kind: 'external'; url: string } | { kind: 'internal'; path: string } {
  const url = redirectUrl?.trim();
  if (url && /^https?:\/\//i.test(url)) return { kind: 'external', url };
  if (url && url.startsWith('/') && !url.startsWith('//')) return { kind: 'external', url };
  return { kind: 'internal', path: successPath };
}
