import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorText } from '../api/errors';
import { AdminPage, Notice } from './admin-page';
import { EntityTable, type Column } from './entity-table';
import { Pager } from './pager';

export const LIST_LIMIT = 25;

/**
 * A backoffice list page: the title with a "new" link, a search field (and `filters`
 * beside it), the table of what `search` finds for the term and page, a pager. `search`
 * runs again whenever it changes (make it with `useCallback` over what it depends on);
 * the page goes back to 1 when the term changes or `resetKey` does.
 */
export function SearchListPage<T extends { id: string }>({
  title,
  newLink,
  searchId,
  searchLabel,
  filters,
  resetKey,
  search,
  columns,
}: {
  title: string;
  newLink: { to: string; label: string };
  searchId: string;
  searchLabel: string;
  filters?: ReactNode;
  resetKey?: string;
  search: (term: string, page: number, limit: number) => Promise<{ data: T[]; total: number }>;
  columns: Column<T>[];
}) {
  const { t } = useTranslation();
  const [term, setTerm] = useState('');
  const [page, setPage] = useState(1);
  const [result, setResult] = useState<{ data: T[]; total: number } | null>(null);
  const [error, setError] = useState('');
  const [lastResetKey, setLastResetKey] = useState(resetKey);
  if (resetKey !== lastResetKey) {
    setLastResetKey(resetKey);
    setPage(1);
  }

  useEffect(() => {
    let current = true;
    search(term.trim(), page, LIST_LIMIT)
      .then((found) => current && (setResult(found), setError('')))
      .catch((failure: unknown) => current && setError(errorText(failure, t('admin.common.failed'))));
    return () => {
      current = false;
    };
  }, [search, term, page, t]);

  return (
    <AdminPage
      title={title}
      actions={
        <Link className="button button--primary" to={newLink.to}>
          {newLink.label}
        </Link>
      }
    >
      <div className="admin-toolbar" role="search">
        <div className="field">
          <label htmlFor={searchId}>{searchLabel}</label>
          <input
            id={searchId}
            type="search"
            value={term}
            onChange={(event) => {
              setTerm(event.target.value);
              setPage(1);
            }}
          />
        </div>
        {filters}
      </div>
      {error && <Notice>{error}</Notice>}
      {!result && !error && <p className="muted">{t('admin.common.loading')}</p>}
      {result && result.data.length === 0 && <p className="muted">{t('admin.common.nothingFound')}</p>}
      {result && result.data.length > 0 && <EntityTable columns={columns} rows={result.data} />}
      {result && result.total > LIST_LIMIT && <Pager page={page} limit={LIST_LIMIT} total={result.total} onPage={setPage} />}
    </AdminPage>
  );
}
