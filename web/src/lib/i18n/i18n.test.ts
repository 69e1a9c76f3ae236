import { describe, expect, it } from 'vitest';
import { localeFromPath, localePrefix, stripLocale, switchLocalePath } from './index';
import { de } from './locales/de';
import { en } from './locales/en';

function flatten(messages: object, prefix = ''): Record<string, string> {
  return Object.fromEntries(
    Object.entries(messages as Record<string, unknown>).flatMap(([key, value]) =>
      typeof value === 'string' ? [[`${prefix}${key}`, value]] : Object.entries(flatten(value as object, `${prefix}${key}.`)),
    ),
  );
}

const placeholders = (text: string) => [...text.matchAll(/{{\s*(\w+)\s*}}/g)].map((match) => match[1]).sort();

describe('translations', () => {
  const english = flatten(en);
  const german = flatten(de);

  it('have the same keys in English and German', () => {
    expect(Object.keys(german).sort()).toEqual(Object.keys(english).sort());
  });

  it('have no empty text and the same placeholders in both languages', () => {
    for (const [key, text] of Object.entries(english)) {
      expect(text.trim(), key).not.toBe('');
      expect(german[key]?.trim(), key).not.toBe('');
      expect(placeholders(german[key] ?? ''), key).toEqual(placeholders(text));
    }
  });
});

describe('locale paths', () => {
  it.each([
    ['/guide/demo', 'en-US'],
    ['/en-GB/guide/demo', 'en-GB'],
    ['/de-DE', 'de-DE'],
    ['/en-US/guide/demo', 'en-US'],
    ['/fr-FR/guide', 'en-US'],
  ] as const)('%s is %s', (path, locale) => {
    expect(localeFromPath(path)).toBe(locale);
  });

  it('prefixes all but the default locale', () => {
    expect(localePrefix('en-US')).toBe('');
    expect(localePrefix('de-DE')).toBe('/de-DE');
  });
});

describe('switching locale', () => {
  it.each([
    ['/detail/1', 'de-DE', '/de-DE/detail/1'],
    ['/de-DE/detail/1', 'en-US', '/detail/1'],
    ['/de-DE/detail/1', 'en-GB', '/en-GB/detail/1'],
    ['/', 'de-DE', '/de-DE'],
    ['/de-DE', 'en-US', '/'],
    ['/en-GB', 'de-DE', '/de-DE'],
  ] as const)('%s to %s is %s', (path, locale, expected) => {
    expect(switchLocalePath(path, locale)).toBe(expected);
  });

  it('strips the prefix', () => {
    expect(stripLocale('/de-DE/Clothing/')).toBe('/Clothing/');
    expect(stripLocale('/de-DE')).toBe('/');
    expect(stripLocale('/Clothing/')).toBe('/Clothing/');
  });
});

describe('backoffice translations', () => {
  it('have the same keys and placeholders in English and German', async () => {
    const { adminEn } = await import('./locales/admin.en');
    const { adminDe } = await import('./locales/admin.de');
    const english = flatten(adminEn);
    const german = flatten(adminDe);
    expect(Object.keys(german).sort()).toEqual(Object.keys(english).sort());
    for (const [key, text] of Object.entries(english)) {
      expect(german[key]?.trim(), key).not.toBe('');
      expect(placeholders(german[key] ?? ''), key).toEqual(placeholders(text));
    }
  });
});
