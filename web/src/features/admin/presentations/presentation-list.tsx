import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAdminApi } from '../api/context';
import { errorText } from '../api/errors';
import { AdminPage, Notice } from '../components/admin-page';
import { useAdminPath } from '../components/admin-path';
import { Pager } from '../components/pager';
import type { PageEntity } from './slides';

const LIMIT = 25;

interface PresentationEntity {
  id: string;
  name: string;
  pages: PageEntity[];
}

/** Presentations: search by name, how many pages each has. */
export function PresentationList() {
  const { t } = useTranslation();
  const api = useAdminApi();
  const adminPath = useAdminPath();
  const [term, setTerm] = useState('');
  const [page, setPage] = useState(1);
  const [result, setResult] = useState<{ data: PresentationEntity[]; total: number } | null>(null);
  const [error, setError] = useState('');

  useEffect(() => {
    let current = true;
    const query = term.trim();
    api
      .search<PresentationEntity>('dsr-presentation', {
        page,
        limit: LIMIT,
        sort: [{ field: 'name' }],
        ...(query ? { filter: [{ type: 'contains', field: 'name', value: query }] } : {}),
      })
      .then((found) => current && (setResult(found), setError('')))
      .catch((failure: unknown) => current && setError(errorText(failure, t('admin.common.failed'))));
    return () => {
      current = false;
    };
  }, [api, term, page, t]);

  return (
    <AdminPage
      title={t('admin.presentations.title')}
      actions={
        <Link className="button button--primary" to={adminPath('presentations/new')}>
          {t('admin.presentations.new')}
        </Link>
      }
    >
      <div className="admin-toolbar" role="search">
        <div className="field">
          <label htmlFor="presentation-search">{t('admin.presentations.searchLabel')}</label>
          <input
            id="presentation-search"
            type="search"
            value={term}
            onChange={(event) => {
              setTerm(event.target.value);
              setPage(1);
            }}
          />
        </div>
      </div>
      {error && <Notice>{error}</Notice>}
      {!result && !error && <p className="muted">{t('admin.common.loading')}</p>}
      {result && result.data.length === 0 && <p className="muted">{t('admin.common.nothingFound')}</p>}
      {result && result.data.length > 0 && (
        <table className="admin-table">
          <thead>
            <tr>
              <th scope="col">{t('admin.presentations.name')}</th>
              <th scope="col">{t('admin.presentations.pages')}</th>
            </tr>
          </thead>
          <tbody>
            {result.data.map((presentation) => (
              <tr key={presentation.id}>
                <td>
                  <Link to={adminPath(`presentations/${presentation.id}`)}>{presentation.name}</Link>
                </td>
                <td>{presentation.pages.length}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {result && result.total > LIMIT && <Pager page={page} limit={LIMIT} total={result.total} onPage={setPage} />}
    </AdminPage>
  );
}
