import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useAdminApi } from '../api/context';
import { errorText } from '../api/errors';
import { AdminPage, Notice } from '../components/admin-page';
import { useAdminPath } from '../components/admin-path';
import { Pager } from '../components/pager';
import { formatDateTime } from '@/lib/format';
import { formatMoney } from './money';
import {
  currentTransaction,
  DELIVERY_STATES,
  filtersFromParams,
  filtersToParams,
  NO_FILTERS,
  ORDER_STATES,
  orderListCriteria,
  PAYMENT_STATES,
  primaryDelivery,
  type OrderFilters,
} from './order-criteria';
import { useStateLabels } from './state-labels';
import type { AdminOrder } from './types';

const LIMIT = 25;

interface AppointmentOption {
  id: string;
  name: string | null;
  accessibleFrom: string | null;
}

/** The appointments to filter by (newest first), and a name for each id. */
function useAppointments() {
  const api = useAdminApi();
  const [list, setList] = useState<AppointmentOption[]>([]);
  useEffect(() => {
    let live = true;
    api
      .search<AppointmentOption>('dsr-appointment', { limit: 100, sort: [{ field: 'accessibleFrom', order: 'DESC' }] })
      .then((answer) => live && setList(answer.data))
      // Without the list the filter offers no appointments; the orders still load.
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [api]);
  const names = useMemo(() => new Map(list.map((appointment) => [appointment.id, appointment.name ?? appointment.id])), [list]);
  return { list, names };
}

/**
 * `/admin/orders`: every order, newest first, paged; searched by number, customer or
 * e-mail and filtered by status, payment, delivery, date range and appointment (all in
 * the URL, so a filtered list can be bookmarked and the back button works).
 */
export function OrderList() {
  const { t, i18n } = useTranslation();
  const api = useAdminApi();
  const adminPath = useAdminPath();
  const labels = useStateLabels();
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => filtersFromParams(params), [params]);
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [term, setTerm] = useState(filters.term);
  const [lastTerm, setLastTerm] = useState(filters.term);
  if (filters.term !== lastTerm) {
    // The URL changed (back button, a link): the field follows it.
    setLastTerm(filters.term);
    setTerm(filters.term);
  }
  // The answer with the request it answers: a newer request shows "loading" over the old rows.
  const [answered, setAnswered] = useState<{ key: string; data: AdminOrder[]; total: number; error: string | null } | null>(null);
  const appointments = useAppointments();
  const criteria = useMemo(() => orderListCriteria(filters, page, LIMIT), [filters, page]);
  const key = JSON.stringify(criteria);

  useEffect(() => {
    let live = true;
    api
      .search<AdminOrder>('order', criteria)
      .then((answer) => live && setAnswered({ key, data: answer.data, total: answer.total, error: null }))
      .catch((failure: unknown) => live && setAnswered({ key, data: [], total: 0, error: errorText(failure, t('admin.orders.loadFailed')) }));
    return () => {
      live = false;
    };
  }, [api, criteria, key, t]);

  const loading = answered?.key !== key;
  const error = answered?.error ?? null;
  const result = answered && !answered.error ? answered : null;

  const update = (next: Partial<OrderFilters>) => setParams({ ...filtersToParams({ ...filters, ...next }), page: '1' });
  const filtered = Object.values(filtersToParams(filters)).length > 0;
  const date = (iso: string) => formatDateTime(iso, { locale: i18n.language });

  const select = (id: keyof OrderFilters, label: string, options: readonly string[], text: (value: string) => string) => (
    <div className="field">
      <label htmlFor={`order-filter-${id}`}>{label}</label>
      <select id={`order-filter-${id}`} value={filters[id]} onChange={(event) => update({ [id]: event.target.value })}>
        <option value="">{t('admin.orders.filters.any')}</option>
        {options.map((value) => (
          <option key={value} value={value}>
            {text(value)}
          </option>
        ))}
      </select>
    </div>
  );

  return (
    <AdminPage title={t('admin.orders.title')}>
      <form
        className="admin-toolbar admin-filters"
        role="search"
        aria-label={t('admin.orders.filters.label')}
        onSubmit={(event) => {
          event.preventDefault();
          update({ term: term.trim() });
        }}
      >
        <div className="field">
          <label htmlFor="order-search">{t('admin.orders.searchLabel')}</label>
          <input id="order-search" type="search" value={term} onChange={(event) => setTerm(event.target.value)} />
        </div>
        <button type="submit" className="button">
          {t('admin.common.search')}
        </button>
        {select('status', t('admin.orders.filters.status'), ORDER_STATES, (value) => labels.state('order', value))}
        {select('payment', t('admin.orders.filters.payment'), PAYMENT_STATES, (value) => labels.state('order_transaction', value))}
        {select('delivery', t('admin.orders.filters.delivery'), DELIVERY_STATES, (value) => labels.state('order_delivery', value))}
        <div className="field">
          <label htmlFor="order-filter-from">{t('admin.orders.filters.from')}</label>
          <input id="order-filter-from" type="date" value={filters.from} max={filters.to || undefined} onChange={(event) => update({ from: event.target.value })} />
        </div>
        <div className="field">
          <label htmlFor="order-filter-to">{t('admin.orders.filters.to')}</label>
          <input id="order-filter-to" type="date" value={filters.to} min={filters.from || undefined} onChange={(event) => update({ to: event.target.value })} />
        </div>
        <div className="field">
          <label htmlFor="order-filter-appointment">{t('admin.orders.filters.appointment')}</label>
          <select id="order-filter-appointment" value={filters.appointment} onChange={(event) => update({ appointment: event.target.value })}>
            <option value="">{t('admin.orders.filters.any')}</option>
            {appointments.list.map((appointment) => (
              <option key={appointment.id} value={appointment.id}>
                {appointment.name ?? appointment.id}
              </option>
            ))}
          </select>
        </div>
        {filtered && (
          <button
            type="button"
            className="button"
            onClick={() => {
              setTerm('');
              setParams(filtersToParams(NO_FILTERS));
            }}
          >
            {t('admin.orders.filters.clear')}
          </button>
        )}
      </form>
      {error && <Notice>{error}</Notice>}
      {loading && !error && (
        <p className="muted" role="status">
          {t('admin.common.loading')}
        </p>
      )}
      {result && !error && result.data.length === 0 && !loading && (
        <p className="admin-empty">{filtered ? t('admin.orders.noneFound') : t('admin.orders.none')}</p>
      )}
      {result && !error && result.data.length > 0 && (
        <>
          <div className="admin-table-scroll">
            <table className="admin-table" aria-busy={loading}>
              <thead>
                <tr>
                  <th scope="col">{t('admin.orders.columns.number')}</th>
                  <th scope="col">{t('admin.orders.columns.date')}</th>
                  <th scope="col">{t('admin.orders.columns.customer')}</th>
                  <th scope="col">{t('admin.orders.columns.total')}</th>
                  <th scope="col">{t('admin.orders.columns.status')}</th>
                  <th scope="col">{t('admin.orders.columns.payment')}</th>
                  <th scope="col">{t('admin.orders.columns.delivery')}</th>
                  <th scope="col">{t('admin.orders.columns.appointment')}</th>
                </tr>
              </thead>
              <tbody>
                {result.data.map((order) => {
                  const appointmentId = order.appointmentId ?? order.appointment?.id ?? null;
                  return (
                    <tr key={order.id}>
                      <td>
                        <Link to={adminPath(`orders/${order.id}`)}>{order.orderNumber}</Link>
                      </td>
                      <td>{date(order.orderDateTime)}</td>
                      <td>
                        {order.orderCustomer ? `${order.orderCustomer.firstName} ${order.orderCustomer.lastName}` : '—'}
                        <br />
                        <span className="muted">{order.orderCustomer?.email}</span>
                      </td>
                      <td className="admin-number">{formatMoney(order.amountTotal, order.currency?.isoCode, i18n.language)}</td>
                      <td>{labels.state('order', order.stateMachineState)}</td>
                      <td>{labels.state('order_transaction', currentTransaction(order)?.stateMachineState)}</td>
                      <td>{labels.state('order_delivery', primaryDelivery(order)?.stateMachineState)}</td>
                      <td>{appointmentId ? (order.appointment?.translated?.name ?? order.appointment?.name ?? appointments.names.get(appointmentId) ?? '—') : '—'}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          {(result.total > LIMIT || page > 1) && <Pager page={page} limit={LIMIT} total={result.total} onPage={(next) => setParams({ ...filtersToParams(filters), page: String(next) })} />}
        </>
      )}
    </AdminPage>
  );
}
