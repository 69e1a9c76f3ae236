import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadingOverlay } from '@/components/loading-overlay';
import { MessageScreen } from '@/components/message-screen';
import { loadRuntimeConfig, RuntimeConfigContext, type RuntimeConfigResult } from '@/config/runtime';

/** Loads the runtime config; the app starts only with a valid one. */
export function AppProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const [result, setResult] = useState<RuntimeConfigResult | null>(null);

  useEffect(() => {
    let cancelled = false;
    void loadRuntimeConfig().then((loaded) => !cancelled && setResult(loaded));
    return () => {
      cancelled = true;
    };
  }, []);

  if (!result) return <LoadingOverlay />;
  if (!result.ok) {
    return (
      <main className="page">
        <MessageScreen title={t('config.title')}>{t(`config.${result.error}`)}</MessageScreen>
      </main>
    );
  }
  return <RuntimeConfigContext.Provider value={result.config}>{children}</RuntimeConfigContext.Provider>;
}
