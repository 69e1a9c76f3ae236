import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useStore } from 'zustand';
import { pagePathStore } from '@/lib/shop/page-path';
import { LOCALES, localeFromPath, localePrefix, switchLocalePath, type Locale } from '@/lib/i18n';
import { offeredLocales, seoPathIn } from '@/lib/shop/session';

/**
 * Switches between en-US, en-GB and de-DE (those the shop offers) on the same page: a content page goes to its seo
 * path in the new language (seo paths differ between languages), else to its
 * language-independent path.
 */
export function LocaleSwitcher() {
  const { t } = useTranslation();
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const current = localeFromPath(pathname);
  const pagePath = useStore(pagePathStore, (state) => state.path);
  // Only the languages the shop offers (the merchant may switch German off).
  const [offered, setOffered] = useState<readonly Locale[]>(LOCALES);
  useEffect(() => {
    let live = true;
    void offeredLocales().then((locales) => live && setOffered(locales));
    return () => {
      live = false;
    };
  }, []);
  const target = async (locale: Locale) => {
    if (!pagePath) return `${switchLocalePath(pathname, locale)}${search}`;
    const seoPath = await seoPathIn(pagePath, locale).catch(() => null);
    return `${localePrefix(locale)}${seoPath ?? pagePath}`;
  };
  return (
    <label className="locale-switcher">
      <span className="visually-hidden">{t('shop.language')}</span>
      <select
        value={current}
        onChange={(event) => void target(event.target.value as Locale).then((path) => navigate(path))}
      >
        {LOCALES.filter((locale) => locale === current || offered.includes(locale)).map((locale) => (
          <option key={locale} value={locale}>
            {t(`locales.${locale}`)}
          </option>
        ))}
      </select>
    </label>
  );
}
