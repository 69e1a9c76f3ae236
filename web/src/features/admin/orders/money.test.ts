import { describe, expect, it } from 'vitest';
import { formatMoney, formatRate, lineRates, pricesAreNet, taxLines } from './money';

const plain = (text: string) => text.replace(/\s/g, ' ');

describe('money in the backoffice', () => {
  it('is written in the order’s currency and the page’s language', () => {
    expect(formatMoney(1234.5, 'EUR', 'en')).toBe('€1,234.50');
    expect(plain(formatMoney(1234.5, 'EUR', 'de-DE'))).toBe('1.234,50 €');
    expect(formatMoney(19.99, 'USD', 'en')).toBe('$19.99');
    expect(formatMoney(null, 'EUR', 'en')).toBe('');
    expect(formatMoney(Number.NaN, 'EUR', 'en')).toBe('');
  });

  it('falls back to the number and the code for a currency Intl does not know', () => {
    expect(formatMoney(5, 'not-a-code', 'en')).toBe('5.00 not-a-code');
  });

  it('writes tax rates as percentages', () => {
    expect(formatRate(19, 'en')).toBe('19%');
    expect(plain(formatRate(7.5, 'de-DE'))).toBe('7,5 %');
  });
});

describe('an order’s taxes', () => {
  it('are summed per rate, lowest rate first, to the cent', () => {
    const lines = taxLines({
      taxStatus: 'gross',
      calculatedTaxes: [
        { taxRate: 19, tax: 15.97, price: 100 },
        { taxRate: 7, tax: 0.65, price: 10 },
        { taxRate: 19, tax: 0.1, price: 0.63 },
      ],
    });
    expect(lines).toEqual([
      { rate: 7, tax: 0.65, base: 10 },
      { rate: 19, tax: 16.07, base: 100.63 },
    ]);
  });

  it('are none for a tax-free order or one without taxes', () => {
    expect(taxLines({ taxStatus: 'tax-free', calculatedTaxes: [{ taxRate: 19, tax: 1, price: 6 }] })).toEqual([]);
    expect(taxLines(null)).toEqual([]);
    expect(taxLines({ taxStatus: 'gross', calculatedTaxes: [{ taxRate: 0, tax: 0, price: 0 }] })).toEqual([]);
  });

  it('name a line’s rates, several for a line split over rates', () => {
    expect(lineRates({ price: { totalPrice: 10, calculatedTaxes: [{ taxRate: 19, tax: 1, price: 10 }] } }, 'en')).toBe('19%');
    expect(lineRates({ price: { totalPrice: -5, calculatedTaxes: [{ taxRate: 19, tax: -0.5, price: -3 }, { taxRate: 7, tax: -0.1, price: -2 }] } }, 'en')).toBe('7% / 19%');
    expect(lineRates({ price: null }, 'en')).toBe('');
  });

  it('knows net prices from gross ones', () => {
    expect(pricesAreNet({ taxStatus: 'net' })).toBe(true);
    expect(pricesAreNet({ taxStatus: 'gross' })).toBe(false);
    expect(pricesAreNet(undefined)).toBe(false);
  });
});
