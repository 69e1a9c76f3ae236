import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '@/lib/format';
import { useLocalePath } from '@/lib/i18n';
import { useAdminApi } from '../api/context';
import { useDisplayName } from '../catalogue/languages';
import { useAdminPath } from '../components/admin-path';
import { SearchListPage } from '../components/search-list-page';
import { statusOf, type AppointmentEntity, type AppointmentStatus } from './appointment-form';

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
  const [filter, setFilter] = useState<Filter>('all');
  const displayName = useDisplayName();

  const search = useCallback(
    (term: string, page: number, limit: number) => {
      const filters = statusFilter(filter);
      if (term) {
        filters.push({
          type: 'multi',
          operator: 'or',
          queries: [
            { type: 'contains', field: 'name', value: term },
            { type: 'contains', field: 'presentationPath', value: term },
          ],
        });
      }
      return api.search<AppointmentEntity>('dsr-appointment', { page, limit, filter: filters, sort: [{ field: 'accessibleFrom', order: 'DESC' }] });
    },
    [api, filter],
  );

  // In the viewer's own zone, named (the appointment may be planned in another).
  const format = (iso: string | null) => formatDateTime(iso, { locale: i18n.language, dateStyle: 'medium', timeStyle: 'short' }) || '—';

  return (
    <SearchListPage
      title={t('admin.appointments.title')}
      newLink={{ to: adminPath('appointments/new'), label: t('admin.appointments.new') }}
      searchId="appointment-search"
      searchLabel={t('admin.appointments.searchLabel')}
      resetKey={filter}
      search={search}
      filters={
        <div className="field">
          <label htmlFor="appointment-filter">{t('admin.appointments.filterLabel')}</label>
          <select id="appointment-filter" value={filter} onChange={(event) => setFilter(event.target.value as Filter)}>
            <option value="all">{t('admin.appointments.all')}</option>
            <option value="upcoming">{t('admin.appointments.status.upcoming')}</option>
            <option value="live">{t('admin.appointments.status.live')}</option>
            <option value="ended">{t('admin.appointments.status.ended')}</option>
          </select>
        </div>
      }
      columns={[
        {
          header: t('admin.appointments.columns.name'),
          cell: (appointment) => <Link to={adminPath(`appointments/${appointment.id}`)}>{displayName(appointment)}</Link>,
        },
        { header: t('admin.appointments.columns.start'), cell: (appointment) => format(appointment.accessibleFrom) },
        {
          header: t('admin.appointments.columns.status'),
          cell: (appointment) => (
            <>
              {t(`admin.appointments.status.${statusOf(appointment)}`)}
              {statusOf(appointment) !== 'upcoming' && (
                <>
                  {' · '}
                  <Link to={localePath(`/guide/report/${appointment.id}`)}>{t('cockpit.sessionReport')}</Link>
                </>
              )}
            </>
          ),
        },
        { header: t('admin.appointments.columns.path'), cell: (appointment) => <code>{appointment.presentationPath}</code> },
      ]}
    />
  );
}
