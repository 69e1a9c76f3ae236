import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useStore } from 'zustand';
import { pagePathStore } from '@/lib/shop/page-path';
import { LOCALES, localeFromPath, localePrefix, switchLocalePath, type Locale } from '@/lib/i18n';

/** Switches between en-US, en-GB and de-DE on the same page. */
export function LocaleSwitcher() {
  const { t } = useTranslation();
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const current = localeFromPath(pathname);
  const pagePath = useStore(pagePathStore, (state) => state.path);
  const target = (locale: Locale) =>
    pagePath ? `${localePrefix(locale)}${pagePath}` : `${switchLocalePath(pathname, locale)}${search}`;
  return (
    <label className="locale-switcher">
      <span className="visually-hidden">{t('shop.language')}</span>
      <select
        value={current}
        onChange={(event) => void navigate(target(event.target.value as Locale))}
      >
        {LOCALES.map((locale) => (
          <option key={locale} value={locale}>
            {t(`locales.${locale}`)}
          </option>
        ))}
      </select>
    </label>
  );
}
