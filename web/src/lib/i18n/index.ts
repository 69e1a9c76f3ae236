import i18next from 'i18next';
import { useCallback } from 'react';
import { initReactI18next } from 'react-i18next';
import { useLocation } from 'react-router';
import { setCookie } from '@/lib/cookies';
import { en } from './locales/en';

/** en-US is the default and has no path prefix; the others are prefixed (`/en-GB/…`). */
export const LOCALES = ['en-US', 'en-GB', 'de-DE'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en-US';

const LOCALE_COOKIE = 'locale';
const LOCALE_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

export function localePrefix(locale: Locale): string {
  return locale === DEFAULT_LOCALE ? '' : `/${locale}`;
}

export function localeFromPath(pathname: string): Locale {
  const first = pathname.split('/')[1];
  return LOCALES.find((locale) => locale !== DEFAULT_LOCALE && locale === first) ?? DEFAULT_LOCALE;
}

/**
 * The German texts are a chunk of their own, loaded when a German page is shown: English
 * visitors do not download them (the storefront's first-load budget, e2e/budget.spec.ts).
 */
export async function loadLocaleTexts(locale: string): Promise<void> {
  if (!locale.startsWith('de') || i18next.hasResourceBundle('de', 'translation')) return;
  const { de } = await import('./locales/de');
  i18next.addResourceBundle('de', 'translation', de, true, true);
}

export async function initI18n(locale: Locale): Promise<unknown> {
  const init = await i18next.use(initReactI18next).init({
    lng: locale,
    fallbackLng: 'en',
    resources: { en: { translation: en } },
    partialBundledLanguages: true,
    interpolation: { escapeValue: false },
  });
  await loadLocaleTexts(locale);
  if (locale.startsWith('de')) await i18next.changeLanguage(locale);
  return init;
}

/** Switches the texts to `locale` (loading them first) and remembers the choice. */
export async function activateLocale(locale: Locale): Promise<void> {
  document.documentElement.lang = locale;
  setCookie(LOCALE_COOKIE, locale, LOCALE_COOKIE_MAX_AGE);
  await loadLocaleTexts(locale);
  if (i18next.language !== locale) await i18next.changeLanguage(locale);
}

/** Turns an app path (`/guide/demo`) into one under the current URL's locale prefix. */
export function useLocalePath(): (path: string) => string {
  const prefix = localePrefix(localeFromPath(useLocation().pathname));
  return useCallback((path) => `${prefix}${path}`, [prefix]);
}

/** The same page under another locale: `/de-DE/detail/1` → `/detail/1` for en-US. */
export function switchLocalePath(pathname: string, locale: Locale): string {
  const current = localeFromPath(pathname);
  const bare = current === DEFAULT_LOCALE ? pathname : pathname.slice(localePrefix(current).length) || '/';
  const target = `${localePrefix(locale)}${bare === '/' && locale !== DEFAULT_LOCALE ? '' : bare}`;
  return target || '/';
}

/** The path without its locale prefix. */
export function stripLocale(pathname: string): string {
  const current = localeFromPath(pathname);
  return current === DEFAULT_LOCALE ? pathname : pathname.slice(localePrefix(current).length) || '/';
}
