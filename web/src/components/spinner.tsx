import { useTranslation } from 'react-i18next';
import './spinner.css';

/** An inline loading indicator with a label for screen readers. */
export function Spinner({ label }: { label?: string }) {
  const { t } = useTranslation();
  return (
    <div className="inline-spinner" role="status">
      <span className="spinner" aria-hidden="true" />
      <span className="visually-hidden">{label ?? t('app.loading')}</span>
    </div>
  );
}
