import { useTranslation } from 'react-i18next';

/** Previous / next page of a list, with "page X of Y". */
export function Pager({ page, limit, total, onPage }: { page: number; limit: number; total: number; onPage: (page: number) => void }) {
  const { t } = useTranslation();
  const pages = Math.max(1, Math.ceil(total / limit));
  return (
    <nav className="admin-pager" aria-label={t('admin.common.page', { page, pages })}>
      <button type="button" className="button button--small" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t('admin.common.previous')}
      </button>
      <span>
        {t('admin.common.page', { page, pages })} · {t('admin.common.total', { count: total })}
      </span>
      <button type="button" className="button button--small" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {t('admin.common.next')}
      </button>
    </nav>
  );
}
