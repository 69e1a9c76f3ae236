import type { Schemas } from '@shopware/api-client/store-api-types';
import { shopClient } from '@/lib/shop/session';
import type { Order } from '@/lib/shop/orders';

export type Context = Schemas['SalesChannelContext'];

/** The session context as it is now (not the cached one of the app start). */
export async function readContext(): Promise<Context> {
  const { data } = await shopClient().invoke('readContext get /context');
  return data;
}

/** Changes the session: addresses, payment or shipping method (spec section 7). */
export async function updateContext(body: { billingAddressId?: string; shippingAddressId?: string; paymentMethodId?: string; shippingMethodId?: string }): Promise<void> {
  const id = body.billingAddressId ?? body.shippingAddressId ?? body.paymentMethodId ?? body.shippingMethodId;
  if (!id) throw new Error('updateContext needs an id');
  await shopClient().invoke('updateContext patch /context', { body });
}

/** Places the session's cart as an order; the terms were accepted on the page. */
export async function placeOrder(customerComment?: string): Promise<Order> {
  const { data } = await shopClient().invoke('createOrder post /checkout/order', {
    body: { tos: true, ...(customerComment?.trim() ? { customerComment: customerComment.trim() } : {}) } as never,
  });
  return data;
}
