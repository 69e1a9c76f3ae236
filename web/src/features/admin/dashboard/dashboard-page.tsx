import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAdminApi, useAdminSession } from '../api/context';
import { errorText } from '../api/errors';
import { AdminPage, Notice } from '../components/admin-page';
import { useAdminPath } from '../components/admin-path';
import { formatDateTime } from '@/lib/format';
import { formatMoney } from '../orders/money';
import type { AdminOrder } from '../orders/types';
import { nextAppointmentsCriteria, openToShipCriteria, revenueOfAggregations, todaysOrdersCriteria } from './dashboard-figures';

type Loaded<T> = { state: 'loading' } | { state: 'failed'; error: string } | { state: 'done'; value: T };

interface Appointment {
  id: string;
  name: string | null;
  accessibleFrom: string | null;
  startedAt: string | null;
}

const OPEN_SHOWN = 5;

/** One search of the dashboard, loaded once (`search` answers the value). */
function useLoaded<T>(search: () => Promise<T>, failed: string, enabled = true): Loaded<T> {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    search()
      .then((value) => live && setLoaded({ state: 'done', value }))
      .catch((failure: unknown) => live && setLoaded({ state: 'failed', error: errorText(failure, failed) }));
    return () => {
      live = false;
    };
    // Loaded once per visit: the figures are as of opening the page.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [enabled]);
  return loaded;
}

/** A card of the dashboard: its heading, then loading, the error, or the content. */
function Card<T>({ id, title, loaded, children }: { id: string; title: string; loaded: Loaded<T>; children: (value: T) => ReactNode }) {
  const { t } = useTranslation();
  return (
    <section className="admin-card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {loaded.state === 'loading' && (
        <p className="muted" role="status">
          {t('admin.common.loading')}
        </p>
      )}
      {loaded.state === 'failed' && <Notice>{loaded.error}</Notice>}
      {loaded.state === 'done' && children(loaded.value)}
    </section>
  );
}

/**
 * `/admin` (the landing page): today's orders and revenue, the orders waiting to be
 * shipped, the next appointments. Guides see the appointments only.
 */
export function DashboardPage() {
  const { t, i18n } = useTranslation();
  const api = useAdminApi();
  const admin = useAdminSession()?.role === 'admin';
  const adminPath = useAdminPath();
  const [now] = useState(() => new Date());

  const today = useLoaded(() => api.search<AdminOrder>('order', todaysOrdersCriteria(now)), t('admin.orders.loadFailed'), admin);
  const toShip = useLoaded(() => api.search<AdminOrder>('order', openToShipCriteria(OPEN_SHOWN)), t('admin.orders.loadFailed'), admin);
  const appointments = useLoaded(() => api.search<Appointment>('dsr-appointment', nextAppointmentsCriteria(now, 5)), t('admin.common.failed'));

  const date = (iso: string | null) => formatDateTime(iso, { locale: i18n.language }) || '—';

  return (
    <AdminPage title={t('admin.dashboard.title')}>
      <div className="admin-cards">
        {admin && (
          <Card id="dashboard-today" title={t('admin.dashboard.today')} loaded={today}>
            {(result) => {
              const revenue = revenueOfAggregations(result.aggregations);
              return (
                <dl className="admin-figures">
                  <div>
                    <dt>{t('admin.dashboard.ordersToday')}</dt>
                    <dd data-testid="orders-today">{result.total}</dd>
                  </div>
                  <div>
                    <dt>{t('admin.dashboard.revenueToday')}</dt>
                    <dd data-testid="revenue-today">
                      {revenue.length === 0 ? formatMoney(0, 'EUR', i18n.language) : revenue.map((entry) => formatMoney(entry.amount, entry.currency, i18n.language)).join(' · ')}
                    </dd>
                  </div>
                </dl>
              );
            }}
          </Card>
        )}
        {admin && (
          <Card id="dashboard-to-ship" title={t('admin.dashboard.toShip')} loaded={toShip}>
            {(result) =>
              result.total === 0 ? (
                <p className="admin-empty">{t('admin.dashboard.nothingToShip')}</p>
              ) : (
                <>
                  <p>
                    <strong data-testid="orders-to-ship">{t('admin.dashboard.toShipCount', { count: result.total })}</strong>
                  </p>
                  <ul className="admin-list">
                    {result.data.map((order) => (
                      <li key={order.id}>
                        <Link to={adminPath(`orders/${order.id}`)}>{order.orderNumber}</Link> · {date(order.orderDateTime)} ·{' '}
                        {order.orderCustomer ? `${order.orderCustomer.firstName} ${order.orderCustomer.lastName}` : ''} ·{' '}
                        {formatMoney(order.amountTotal, order.currency?.isoCode, i18n.language)}
                      </li>
                    ))}
                  </ul>
                  <Link to={`${adminPath('orders')}?delivery=open`}>{t('admin.dashboard.allToShip')}</Link>
                </>
              )
            }
          </Card>
        )}
        <Card id="dashboard-appointments" title={t('admin.dashboard.nextAppointments')} loaded={appointments}>
          {(result) =>
            result.data.length === 0 ? (
              <p className="admin-empty">
                {t('admin.dashboard.noAppointments')} <Link to={adminPath('appointments/new')}>{t('admin.appointments.new')}</Link>
              </p>
            ) : (
              <ul className="admin-list">
                {result.data.map((appointment) => (
                  <li key={appointment.id}>
                    <Link to={adminPath(`appointments/${appointment.id}`)}>{appointment.name ?? appointment.id}</Link> · {date(appointment.accessibleFrom)}
                    {appointment.startedAt && <strong> · {t('admin.appointments.status.live')}</strong>}
                  </li>
                ))}
              </ul>
            )
          }
        </Card>
      </div>
    </AdminPage>
  );
}
