import { useTranslation } from 'react-i18next';

/** Covers the whole page while the app starts or a screen loads. */
export function LoadingOverlay() {
  const { t } = useTranslation();
  return (
    <div className="loading-overlay" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>{t('app.loading')}</span>
    </div>
  );
}
