import { describe, expect, it } from 'vitest';
import { cartErrors, cartItemCount, quantityRange } from './cart';

describe('cart helpers', () => {
  it('counts product quantities only', () => {
    const cart = {
      lineItems: [
        { id: 'a', type: 'product', quantity: 2 },
        { id: 'b', type: 'product', quantity: 1 },
        { id: 'c', type: 'promotion', quantity: 1 },
      ],
    } as never;
    expect(cartItemCount(cart)).toBe(3);
    expect(cartItemCount(null)).toBe(0);
  });

  it('reads errors from a list or a keyed object', () => {
    expect(cartErrors({ errors: [{ key: 'k', level: 20, message: 'Only 2 left' }] } as never)).toEqual([{ key: 'k', messageKey: '', level: 20, message: 'Only 2 left' }]);
    expect(cartErrors({ errors: { 'promotion-not-found': { code: 0, key: '', level: 20, message: 'Code unknown', messageKey: 'promotion-not-found' } } } as never)).toEqual([
      { key: 'promotion-not-found', messageKey: 'promotion-not-found', level: 20, message: 'Code unknown' },
    ]);
    expect(cartErrors({} as never)).toEqual([]);
  });

  it('limits quantities by purchase rules and stock', () => {
    expect(quantityRange({ quantity: 2, quantityInformation: { minPurchase: 1, maxPurchase: 5, purchaseSteps: 1 } })).toEqual({ min: 1, max: 5, step: 1 });
    expect(quantityRange({ quantity: 1, quantityInformation: {} })).toEqual({ min: 1, max: 100, step: 1 });
    expect(quantityRange({ quantity: 4, quantityInformation: { minPurchase: 2, purchaseSteps: 2, maxPurchase: 3 } })).toEqual({ min: 2, max: 4, step: 2 });
  });
});
