import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLocalePath } from '@/lib/i18n';
import { useDocumentTitle } from '@/lib/head';
import './error-view.css';

/** The error texts of spec section 8 by status code; 0 means the shop could not be reached. */
export function errorTextKey(statusCode: number) {
  switch (statusCode) {
    case 404:
      return 'errorPages.404' as const;
    case 408:
      return 'errorPages.408' as const;
    case 502:
      return 'errorPages.502' as const;
    case 503:
      return 'errorPages.503' as const;
    case 0:
      return 'errorPages.network' as const;
    default:
      return 'errorPages.500' as const;
  }
}

/** An error page: 404, 408, 500, 502, 503 (and no connection) with their texts and titles. */
export function ErrorView({ statusCode, onRetry }: { statusCode: number; onRetry?: () => void }) {
  const { t } = useTranslation();
  const localePath = useLocalePath();
  const title = statusCode === 404 ? t('errorPages.notFoundTitle') : t('errorPages.serverErrorTitle');
  useDocumentTitle(title);
  return (
    <section className="error-view" data-status={statusCode}>
      <p className="error-view__code" aria-hidden="true">
        {statusCode || '—'}
      </p>
      <h1>{title}</h1>
      <p className="error-view__text">{t(errorTextKey(statusCode))}</p>
      <div className="error-view__actions">
        {onRetry && statusCode !== 404 && (
          <button type="button" className="button" onClick={onRetry}>
            {t('shop.retry')}
          </button>
        )}
        <Link className="button button--primary" to={localePath('/') || '/'}>
          {t('shop.backHome')}
        </Link>
      </div>
    </section>
  );
}
