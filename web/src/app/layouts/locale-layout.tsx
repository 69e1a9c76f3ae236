import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet } from 'react-router';
import { activateLocale, localePrefix, type Locale } from '@/lib/i18n';

/** The frame of every page under one locale prefix. */
export function LocaleLayout({ locale }: { locale: Locale }) {
  const { t } = useTranslation();

  useEffect(() => {
    void activateLocale(locale);
  }, [locale]);

  return (
    <>
      <header className="topbar">
        <Link className="topbar__brand" to={localePrefix(locale) || '/'}>
          {t('app.name')}
        </Link>
      </header>
      <main className="page">
        <Outlet />
      </main>
    </>
  );
}
