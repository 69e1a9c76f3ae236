import { useEffect } from 'react';
import { Outlet } from 'react-router';
import { LoadingBar } from '@/components/loading-bar';
import { ModalHost } from '@/components/modal-host';
import { ToastStack } from '@/components/toast-stack';
import { activateLocale, type Locale } from '@/lib/i18n';

/** Everything under one locale prefix: the page's layout plus the shell's overlays. */
export function LocaleLayout({ locale }: { locale: Locale }) {
  useEffect(() => {
    void activateLocale(locale);
  }, [locale]);

  return (
    <>
      <LoadingBar />
      <Outlet />
      <ToastStack />
      <ModalHost />
    </>
  );
}
