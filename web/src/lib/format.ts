import i18next from 'i18next';

let currencyCode = 'EUR';

/** The session currency, from the shop context. */
export function setCurrency(code: string | null | undefined): void {
  if (code) currencyCode = code;
}

/** A price in the session currency and the page's locale: `€1,234.50`, `1.234,50 €`. */
export function formatPrice(value: number | null | undefined, locale: string = i18next.language || 'en-US'): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '';
  return new Intl.NumberFormat(locale, { style: 'currency', currency: currencyCode }).format(value);
}

export function formatNumber(value: number, locale: string = i18next.language || 'en-US', digits = 2): string {
  return new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(value);
}
