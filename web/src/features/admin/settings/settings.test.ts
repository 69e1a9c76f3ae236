import { describe, expect, it } from 'vitest';
import { moved } from './ordering';
import { shippingPrices, shippingPricesPayload } from './shipping-prices';

describe('moving a method', () => {
  const list = [
    { id: 'a', position: 1 },
    { id: 'b', position: 2 },
    { id: 'c', position: 3 },
  ];

  it('swaps it with its neighbour and writes only the positions that change', () => {
    expect(moved(list, 'c', -1)).toEqual([
      { id: 'c', position: 2 },
      { id: 'b', position: 3 },
    ]);
    expect(moved(list, 'a', 1)).toEqual([
      { id: 'b', position: 1 },
      { id: 'a', position: 2 },
    ]);
  });

  it('numbers repeated or gapped positions 1, 2, 3 in the new order', () => {
    const stored = [
      { id: 'a', position: 5 },
      { id: 'b', position: 5 },
      { id: 'c', position: 9 },
    ];
    expect(moved(stored, 'c', -1)).toEqual([
      { id: 'a', position: 1 },
      { id: 'c', position: 2 },
      { id: 'b', position: 3 },
    ]);
  });

  it('moves nothing past either end, nor an unknown one', () => {
    expect(moved(list, 'a', -1)).toEqual([]);
    expect(moved(list, 'c', 1)).toEqual([]);
    expect(moved(list, 'x', 1)).toEqual([]);
  });
});

describe('a shipping method’s prices', () => {
  it('read as the cost and the value it is free from', () => {
    expect(
      shippingPrices([
        { quantityStart: 50, currencyPrice: [{ gross: 0 }] },
        { quantityStart: 0, currencyPrice: [{ gross: 4.99 }] },
      ]),
    ).toEqual({ price: 4.99, freeFrom: 50 });
    expect(shippingPrices([{ quantityStart: 0, currencyPrice: [{ gross: 9.9 }] }])).toEqual({ price: 9.9, freeFrom: null });
    expect(shippingPrices([])).toEqual({ price: null, freeFrom: null });
  });

  it('are written back as Shopware’s matrix in the currency they had', () => {
    const current = [{ quantityStart: 0, currencyPrice: [{ currencyId: 'eur', gross: 4.99 }] }];
    expect(shippingPricesPayload(5.99, 75, current)).toEqual([
      { calculation: 2, quantityStart: 0, quantityEnd: 75, currencyPrice: [{ currencyId: 'eur', gross: 5.99, net: 5.99, linked: false }] },
      { calculation: 2, quantityStart: 75, quantityEnd: null, currencyPrice: [{ currencyId: 'eur', gross: 0, net: 0, linked: false }] },
    ]);
    expect(shippingPricesPayload(5.99, undefined, [])).toEqual([{ calculation: 2, quantityStart: 0, quantityEnd: null, currencyPrice: [{ gross: 5.99, net: 5.99, linked: false }] }]);
  });

  it('send an empty cost as none, so the API names the field', () => {
    expect(shippingPricesPayload(undefined, undefined, [])[0]).toMatchObject({ currencyPrice: [{ gross: null }] });
  });
});
