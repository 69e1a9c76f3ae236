import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLocalePath } from '@/lib/i18n';
import { useAdminApi } from '../api/context';
import { errorText } from '../api/errors';
import { AdminPage, Notice } from '../components/admin-page';
import { useAdminPath } from '../components/admin-path';
import { Pager } from '../components/pager';
import { statusOf, type AppointmentEntity, type AppointmentStatus } from './appointment-form';

const LIMIT = 25;
type Filter = AppointmentStatus | 'all';

/** The Admin API criteria of a status (live: started, not ended; ended: ended; upcoming: neither). */
function statusFilter(filter: Filter): unknown[] {
  switch (filter) {
    case 'live':
      return [
        { type: 'not', queries: [{ type: 'equals', field: 'startedAt', value: null }] },
        { type: 'equals', field: 'endedAt', value: null },
      ];
    case 'ended':
      return [{ type: 'not', queries: [{ type: 'equals', field: 'endedAt', value: null }] }];
    case 'upcoming':
      return [
        { type: 'equals', field: 'startedAt', value: null },
        { type: 'equals', field: 'endedAt', value: null },
      ];
    default:
      return [];
  }
}

/** Appointments: search by name or path, upcoming / live / ended, newest start first. */
export function AppointmentList() {
  const { t, i18n } = useTranslation();
  const api = useAdminApi();
  const adminPath = useAdminPath();
  const localePath = useLocalePath();
  const [term, setTerm] = useState('');
  const [filter, setFilter] = useState<Filter>('all');
  const [page, setPage] = useState(1);
  const [result, setResult] = useState<{ data: AppointmentEntity[]; total: number } | null>(null);
  const [error, setError] = useState('');

  useEffect(() => {
    let current = true;
    const filters = statusFilter(filter);
    const query = term.trim();
    if (query) {
      filters.push({
        type: 'multi',
        operator: 'or',
        queries: [
          { type: 'contains', field: 'name', value: query },
          { type: 'contains', field: 'presentationPath', value: query },
        ],
      });
    }
    api
      .search<AppointmentEntity>('dsr-appointment', { page, limit: LIMIT, filter: filters, sort: [{ field: 'accessibleFrom', order: 'DESC' }] })
      .then((found) => current && (setResult(found), setError('')))
      .catch((failure: unknown) => current && setError(errorText(failure, t('admin.common.failed'))));
    return () => {
      current = false;
    };
  }, [api, term, filter, page, t]);

  const format = (iso: string | null) => (iso ? new Date(iso).toLocaleString(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }) : '—');

  return (
    <AdminPage
      title={t('admin.appointments.title')}
      actions={
        <Link className="button button--primary" to={adminPath('appointments/new')}>
          {t('admin.appointments.new')}
        </Link>
      }
    >
      <div className="admin-toolbar" role="search">
        <div className="field">
          <label htmlFor="appointment-search">{t('admin.appointments.searchLabel')}</label>
          <input
            id="appointment-search"
            type="search"
            value={term}
            onChange={(event) => {
              setTerm(event.target.value);
              setPage(1);
            }}
          />
        </div>
        <div className="field">
          <label htmlFor="appointment-filter">{t('admin.appointments.filterLabel')}</label>
          <select
            id="appointment-filter"
            value={filter}
            onChange={(event) => {
              setFilter(event.target.value as Filter);
              setPage(1);
            }}
          >
            <option value="all">{t('admin.appointments.all')}</option>
            <option value="upcoming">{t('admin.appointments.status.upcoming')}</option>
            <option value="live">{t('admin.appointments.status.live')}</option>
            <option value="ended">{t('admin.appointments.status.ended')}</option>
          </select>
        </div>
      </div>
      {error && <Notice>{error}</Notice>}
      {!result && !error && <p className="muted">{t('admin.common.loading')}</p>}
      {result && result.data.length === 0 && <p className="muted">{t('admin.common.nothingFound')}</p>}
      {result && result.data.length > 0 && (
        <table className="admin-table">
          <thead>
            <tr>
              <th scope="col">{t('admin.appointments.columns.name')}</th>
              <th scope="col">{t('admin.appointments.columns.start')}</th>
              <th scope="col">{t('admin.appointments.columns.status')}</th>
              <th scope="col">{t('admin.appointments.columns.path')}</th>
            </tr>
          </thead>
          <tbody>
            {result.data.map((appointment) => (
              <tr key={appointment.id}>
                <td>
                  <Link to={adminPath(`appointments/${appointment.id}`)}>{appointment.name}</Link>
                </td>
                <td>{format(appointment.accessibleFrom)}</td>
                <td>
                  {t(`admin.appointments.status.${statusOf(appointment)}`)}
                  {statusOf(appointment) !== 'upcoming' && (
                    <>
                      {' · '}
                      <Link to={localePath(`/guide/report/${appointment.id}`)}>{t('cockpit.sessionReport')}</Link>
                    </>
                  )}
                </td>
                <td>
                  <code>{appointment.presentationPath}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {result && result.total > LIMIT && <Pager page={page} limit={LIMIT} total={result.total} onPage={setPage} />}
    </AdminPage>
  );
}
