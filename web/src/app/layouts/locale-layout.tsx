import { useEffect } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';
import { useStore } from 'zustand';
import { LoadingBar } from '@/components/loading-bar';
import { LoadingOverlay } from '@/components/loading-overlay';
import { ModalHost } from '@/components/modal-host';
import { ToastStack } from '@/components/toast-stack';
import { activateLocale, type Locale } from '@/lib/i18n';
import { overlayStore } from '@/lib/ui/overlay';

/** Everything under one locale prefix: the page's layout plus the shell's overlays. */
export function LocaleLayout({ locale }: { locale: Locale }) {
  const overlay = useStore(overlayStore, (state) => state.requests > 0);

  useEffect(() => {
    void activateLocale(locale);
  }, [locale]);

  return (
    <>
      <LoadingBar />
      <Outlet />
      <ToastStack />
      <ModalHost />
      {overlay && <LoadingOverlay />}
      {/* New pages start at the top; back and forward return to where the visitor was. */}
      <ScrollRestoration getKey={(location) => location.pathname} />
    </>
  );
}
