import i18next from 'i18next';

/**
 * The one place where the web app turns numbers, prices and dates into text: always in
 * the page's locale (`de-DE` pages say `28.11.2026` and `1.234,50 €`, English ones
 * `Nov 28, 2026` and `€1,234.50`) and, for dates, in the viewer's own time zone unless a
 * zone is given. `Intl` does the work; nothing here computes offsets or patterns by hand.
 */

let currencyCode = 'EUR';

/** The page's locale, as i18next has it (`en-US`, `en-GB`, `de-DE`). */
export function pageLocale(): string {
  return i18next.language || 'en-US';
}

/** The session currency, from the shop context. */
export function setCurrency(code: string | null | undefined): void {
  if (code) currencyCode = code;
}

/** A price in the session currency (or `currency`) and the page's locale: `€1,234.50`, `1.234,50 €`. */
export function formatPrice(value: number | null | undefined, locale: string = pageLocale(), currency: string = currencyCode): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '';
  return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(value);
}

/** A number in the page's locale with at most `digits` (at least `minimumDigits`) decimals. */
export function formatNumber(value: number, locale: string = pageLocale(), digits = 2, minimumDigits = 0): string {
  return new Intl.NumberFormat(locale, { maximumFractionDigits: digits, minimumFractionDigits: minimumDigits }).format(value);
}

/** A share (0.25) as a percentage in the page's locale: `25 %` in German, `25%` in English. */
export function formatPercent(value: number, locale: string = pageLocale(), digits = 1): string {
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: digits }).format(value);
}

export type DateInput = string | number | Date | null | undefined;

function toDate(value: DateInput): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

export interface DateFormat extends Intl.DateTimeFormatOptions {
  /** The locale; the page's by default. */
  locale?: string;
}

/** The options that say what a date shows; without any, the kind's default is taken. */
const SHOWN = ['dateStyle', 'timeStyle', 'weekday', 'era', 'year', 'month', 'day', 'hour', 'minute', 'second', 'timeZoneName'];

function format(value: DateInput, defaults: Intl.DateTimeFormatOptions, { locale = pageLocale(), ...options }: DateFormat): string {
  const date = toDate(value);
  if (!date) return '';
  const chosen = SHOWN.some((key) => key in options) ? options : { ...defaults, ...options };
  return new Intl.DateTimeFormat(locale, chosen).format(date);
}

/** A day: `Nov 28, 2026` / `28.11.2026` (empty for no or a broken date). */
export function formatDate(value: DateInput, options: DateFormat = {}): string {
  return format(value, { dateStyle: 'medium' }, options);
}

/** A day and time in the viewer's zone: `Nov 28, 2026, 6:00 PM` / `28.11.2026, 18:00`. */
export function formatDateTime(value: DateInput, options: DateFormat = {}): string {
  return format(value, { dateStyle: 'medium', timeStyle: 'short' }, options);
}

/** A time of day in the viewer's zone: `6:00 PM` / `18:00`. */
export function formatTime(value: DateInput, options: DateFormat = {}): string {
  return format(value, { hour: '2-digit', minute: '2-digit' }, options);
}
