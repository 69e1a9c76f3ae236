import type { Schemas } from '@shopware/api-client/store-api-types';
import { createStore } from 'zustand/vanilla';
import { shopClient } from './session';

export type Cart = Schemas['Cart'];
export type LineItem = Schemas['LineItem'];

export interface CartError {
  /** `messageKey` followed by the subject (an item id, a promotion code, a country). */
  key: string;
  /** What kind of error (`promotion-not-found`); empty when the shop sent none. */
  messageKey: string;
  level: number;
  message: string;
}

interface CartState {
  cart: Cart | null;
  status: 'idle' | 'loading' | 'ready' | 'failed';
  /** Errors of the last cart response: shown once, then consumed. */
  errors: CartError[];
  refresh(): Promise<Cart>;
  addProduct(productId: string, quantity?: number): Promise<Cart>;
  changeQuantity(lineItemId: string, quantity: number): Promise<Cart>;
  remove(lineItemId: string): Promise<Cart>;
  /** A promotion code becomes a line item of type promotion. */
  addPromotionCode(code: string): Promise<Cart>;
  consumeErrors(): CartError[];
  reset(): void;
}

/** The errors a cart response carries, as a list (the API sends a list or a keyed object). */
export function cartErrors(cart: Cart | null | undefined): CartError[] {
  const errors = cart?.errors;
  const list = Array.isArray(errors) ? errors : Object.entries(errors ?? {}).map(([key, error]) => ({ ...error, key: error.key || key }));
  return list.map((error) => {
    const entry = error as { key?: string; messageKey?: string; level?: number; message?: string };
    return { key: entry.key || entry.messageKey || '', messageKey: entry.messageKey ?? '', level: entry.level ?? 10, message: entry.message ?? '' };
  });
}

type Invoke = (cart: Cart) => void;

/** The session's cart (`/checkout/cart`), shared by the product pages and the cart views. */
export function createCartStore() {
  return createStore<CartState>()((set, get) => {
    const take: Invoke = (cart) => set({ cart, status: 'ready', errors: cartErrors(cart) });
    const run = async (call: () => Promise<{ data: Cart }>) => {
      const { data } = await call();
      take(data);
      return data;
    };
    return {
      cart: null,
      status: 'idle',
      errors: [],
      async refresh() {
        if (!get().cart) set({ status: 'loading' });
        try {
          return await run(() => shopClient().invoke('readCart get /checkout/cart'));
        } catch (error) {
          if (!get().cart) set({ status: 'failed' });
          throw error;
        }
      },
      addProduct: (productId, quantity = 1) =>
        run(() =>
          shopClient().invoke('addLineItem post /checkout/cart/line-item', {
            body: { items: [{ id: productId, referencedId: productId, quantity, type: 'product' }] },
          }),
        ),
      changeQuantity: (id, quantity) =>
        run(() => shopClient().invoke('updateLineItem patch /checkout/cart/line-item', { body: { items: [{ id, quantity }] } })),
      remove: (id) => run(() => shopClient().invoke('removeLineItem post /checkout/cart/line-item/delete', { body: { ids: [id] } })),
      addPromotionCode: (code) =>
        run(() =>
          shopClient().invoke('addLineItem post /checkout/cart/line-item', {
            body: { items: [{ type: 'promotion', referencedId: code.trim() }] } as never,
          }),
        ),
      consumeErrors() {
        const { errors } = get();
        set({ errors: [] });
        return errors;
      },
      reset: () => set({ cart: null, status: 'idle', errors: [] }),
    };
  });
}

export const cartStore = createCartStore();

export const cartItemCount = (cart: Cart | null): number =>
  (cart?.lineItems ?? []).filter((item) => item.type === 'product').reduce((sum, item) => sum + (item.quantity ?? 0), 0);

/** The quantities a line item may take: from min to max (stock) in purchase steps. */
export function quantityRange(item: Pick<LineItem, 'quantity' | 'quantityInformation'>, cap = 100): { min: number; max: number; step: number } {
  const info = item.quantityInformation ?? {};
  const min = Math.max(1, info.minPurchase ?? 1);
  const step = Math.max(1, info.purchaseSteps ?? 1);
  const max = Math.max(min, Math.min(info.maxPurchase ?? cap, cap), item.quantity ?? min);
  return { min, max, step };
}
