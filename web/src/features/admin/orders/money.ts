import { formatNumber, formatPercent, formatPrice } from '@/lib/format';
import type { CalculatedTax, CartPrice, OrderLineItem } from './types';

/** An amount in the order's currency and the page's language (`€1,234.50`, `1.234,50 €`); empty for none. */
export function formatMoney(value: number | null | undefined, currency: string | null | undefined, locale: string): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '';
  try {
    return formatPrice(value, locale, currency || 'EUR');
  } catch {
    // An unknown currency code: the number with the code beside it.
    return `${formatNumber(value, locale, 2, 2)} ${currency ?? ''}`.trim();
  }
}

/** A tax rate as the page's language writes a percentage (`19 %`, `7,5 %`). */
export function formatRate(rate: number, locale: string): string {
  return formatPercent(rate / 100, locale, 2);
}

/** One row of an order's tax summary: the rate, the tax, and the amount it was taken from. */
export interface TaxLine {
  rate: number;
  tax: number;
  base: number;
}

const cents = (value: number) => Math.round(value * 100) / 100;

/**
 * An order's taxes per rate, lowest rate first: the same rate given twice (a line's and
 * the shipping's) is one row. A tax-free order has none.
 */
export function taxLines(price: Pick<CartPrice, 'calculatedTaxes' | 'taxStatus'> | null | undefined): TaxLine[] {
  if (!price || price.taxStatus === 'tax-free') return [];
  const byRate = new Map<number, TaxLine>();
  for (const entry of price.calculatedTaxes ?? []) {
    const line = byRate.get(entry.taxRate) ?? { rate: entry.taxRate, tax: 0, base: 0 };
    line.tax = cents(line.tax + entry.tax);
    line.base = cents(line.base + entry.price);
    byRate.set(entry.taxRate, line);
  }
  return [...byRate.values()].filter((line) => line.tax !== 0 || line.base !== 0).sort((a, b) => a.rate - b.rate);
}

/** The rates of a line (`19 %`, or `7 % / 19 %` for a line split over rates, as a discount may be). */
export function lineRates(line: Pick<OrderLineItem, 'price'>, locale: string): string {
  const rates = [...new Set((line.price?.calculatedTaxes ?? []).map((tax: CalculatedTax) => tax.taxRate))].sort((a, b) => a - b);
  return rates.map((rate) => formatRate(rate, locale)).join(' / ');
}

/** Whether the order's line prices are gross (tax included) or net (tax added on top). */
export function pricesAreNet(price: Pick<CartPrice, 'taxStatus'> | null | undefined): boolean {
  return price?.taxStatus === 'net';
}
