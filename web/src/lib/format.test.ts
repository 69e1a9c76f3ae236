import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatNumber, formatPercent, formatPrice, formatTime } from './format';

/** Intl separates with non-breaking spaces; the expectations are written with plain ones. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

describe('format (issue #31, item 6: German pages are German)', () => {
  const at = '2026-11-28T17:05:00Z';

  it('writes dates in the locale given, in the zone given', () => {
    expect(formatDate(at, { locale: 'de-DE', timeZone: 'UTC' })).toBe('28.11.2026');
    expect(formatDate(at, { locale: 'en-US', timeZone: 'UTC' })).toBe('Nov 28, 2026');
    expect(plain(formatDateTime(at, { locale: 'de-DE', timeZone: 'Europe/Berlin', dateStyle: 'medium', timeStyle: 'short' }))).toBe('28.11.2026, 18:05');
    expect(formatTime(at, { locale: 'de-DE', timeZone: 'UTC' })).toBe('17:05');
  });

  it('leaves no date and a broken one empty', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDate(undefined)).toBe('');
    expect(formatDateTime('not a date')).toBe('');
  });

  it('writes numbers, percentages and prices in the locale', () => {
    expect(formatNumber(1234.5, 'de-DE')).toBe('1.234,5');
    expect(plain(formatPercent(0.25, 'de-DE'))).toBe('25 %');
    expect(plain(formatPrice(1234.5, 'de-DE', 'EUR'))).toBe('1.234,50 €');
    expect(formatPrice(1234.5, 'en-US', 'EUR')).toBe('€1,234.50');
  });
});
