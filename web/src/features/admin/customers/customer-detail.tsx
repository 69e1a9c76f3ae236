import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { AddressLines } from '@/components/address-lines';
import { notify } from '@/lib/ui/notifications';
import { useAdminApi } from '../api/context';
import { errorText } from '../api/errors';
import { Notice } from '../components/admin-page';
import { useAdminPath } from '../components/admin-path';
import { EditorPage } from '../components/editor-page';
import { saveFile } from '../components/save-file';
import { addressOf } from '../orders/address';
import { formatDateTime } from '@/lib/format';
import { formatMoney } from '../orders/money';
import { currentTransaction, primaryDelivery } from '../orders/order-criteria';
import { useStateLabels } from '../orders/state-labels';
import type { AdminOrder } from '../orders/types';
import { customerOrdersCriteria } from './customer-criteria';
import { statusOf, type AdminCustomer } from './types';

/**
 * `/admin/customers/:id`: a customer with addresses and orders; deactivate or activate;
 * the GDPR export (one JSON file of everything kept about them) and the deletion (the
 * customer goes, their orders stay with the name and e-mail anonymised).
 */
export function CustomerDetail() {
  const { id = '' } = useParams();
  const { t, i18n } = useTranslation();
  const api = useAdminApi();
  const adminPath = useAdminPath();
  const navigate = useNavigate();
  const labels = useStateLabels();
  const [customer, setCustomer] = useState<AdminCustomer | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [orders, setOrders] = useState<AdminOrder[] | null>(null);
  const [ordersError, setOrdersError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'active' | 'export' | 'delete' | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);

  const load = useCallback(
    () =>
      api
        .search<AdminCustomer>('customer', {
          ids: [id],
          limit: 1,
          associations: { addresses: { associations: { country: {}, countryState: {} } }, group: {}, salutation: {} },
        })
        .then((found) => {
          const current = found.data[0];
          setCustomer(current ?? null);
          setLoadError(current ? null : t('admin.customers.notFound'));
        })
        .catch((failure: unknown) => setLoadError(errorText(failure, t('admin.customers.loadFailed')))),
    [api, id, t],
  );

  useEffect(() => {
    void load();
    api
      .search<AdminOrder>('order', customerOrdersCriteria(id))
      .then((answer) => (setOrders(answer.data), setOrdersError(null)))
      .catch((failure: unknown) => setOrdersError(errorText(failure, t('admin.orders.loadFailed'))));
  }, [api, id, load, t]);

  /** Runs an action with its busy state; `done` is said in a notification (none: the caller says it). */
  const run = async (kind: 'active' | 'export' | 'delete', work: () => Promise<void>, done: string | null): Promise<boolean> => {
    setBusy(kind);
    setActionError(null);
    try {
      await work();
      if (done) notify(done, { type: 'success' });
      return true;
    } catch (failure) {
      setActionError(errorText(failure, t('admin.common.failed')));
      return false;
    } finally {
      setBusy(null);
    }
  };

  const name = customer ? `${customer.firstName} ${customer.lastName}`.trim() || customer.email : '';
  const title = customer ? t('admin.customers.detailTitle', { name }) : t('admin.customers.title');

  if (!customer) {
    return (
      <EditorPage title={title} backTo={adminPath('customers')} message={loadError ? { kind: 'error', text: loadError } : null}>
        {!loadError && (
          <p className="muted" role="status">
            {t('admin.common.loading')}
          </p>
        )}
      </EditorPage>
    );
  }

  const toggle = () =>
    run(
      'active',
      async () => {
        await api.patch('customer', customer.id, { active: !customer.active });
        await load();
      },
      customer.active ? t('admin.customers.deactivated', { name }) : t('admin.customers.activated', { name }),
    );

  const exportData = () => run('export', async () => saveFile(await api.gdprExport(customer.id)), t('admin.customers.exported'));

  const remove = async () => {
    if (!window.confirm(t('admin.customers.confirmDelete', { name, count: orders?.length ?? 0 }))) return;
    // The list says what happened (and stays saying it, unlike a notification).
    if (await run('delete', () => api.anonymize(customer.id), null)) void navigate(adminPath('customers'), { state: { notice: t('admin.customers.deleted', { name }) } });
  };

  const date = (iso: string | null | undefined) => formatDateTime(iso, { locale: i18n.language }) || '—';
  const status = statusOf(customer);

  return (
    <EditorPage title={title} backTo={adminPath('customers')} message={null}>
      {actionError && <Notice>{actionError}</Notice>}
      <div className="admin-toolbar">
        {!customer.guest && (
          <button type="button" className="button" disabled={busy !== null} aria-busy={busy === 'active'} onClick={() => void toggle()}>
            {busy === 'active' ? t('admin.common.working') : customer.active ? t('admin.customers.deactivate') : t('admin.customers.activate')}
          </button>
        )}
        <button type="button" className="button" disabled={busy !== null} aria-busy={busy === 'export'} onClick={() => void exportData()}>
          {busy === 'export' ? t('admin.common.working') : t('admin.customers.export')}
        </button>
        <button type="button" className="button button--danger-outline" disabled={busy !== null} aria-busy={busy === 'delete'} onClick={() => void remove()}>
          {busy === 'delete' ? t('admin.common.working') : t('admin.customers.delete')}
        </button>
      </div>
      <p className="muted">{t('admin.customers.gdprHint')}</p>

      <div className="admin-cards">
        <section className="admin-card" aria-labelledby="customer-facts">
          <h2 id="customer-facts">{t('admin.customers.facts')}</h2>
          <dl className="admin-facts">
            <dt>{t('admin.customers.number')}</dt>
            <dd>{customer.customerNumber}</dd>
            <dt>{t('admin.customers.email')}</dt>
            <dd>{customer.email}</dd>
            {customer.company && (
              <>
                <dt>{t('admin.customers.company')}</dt>
                <dd>{customer.company}</dd>
              </>
            )}
            <dt>{t('admin.customers.group')}</dt>
            <dd>{customer.group?.translated?.name ?? customer.group?.name ?? '—'}</dd>
            <dt>{t('admin.customers.statusColumn')}</dt>
            <dd data-testid="customer-status">{t(`admin.customers.status.${status}`)}</dd>
            <dt>{t('admin.customers.since')}</dt>
            <dd>{date(customer.createdAt)}</dd>
            <dt>{t('admin.customers.lastLogin')}</dt>
            <dd>{date(customer.lastLogin)}</dd>
          </dl>
        </section>
        <section className="admin-card" aria-labelledby="customer-addresses">
          <h2 id="customer-addresses">{t('admin.customers.addresses')}</h2>
          {(customer.addresses ?? []).length === 0 ? (
            <p className="muted">{t('admin.customers.noAddresses')}</p>
          ) : (
            <ul className="admin-addresses">
              {(customer.addresses ?? []).map((entry) => (
                <li key={entry.id}>
                  <AddressLines address={addressOf(entry)} />
                  {(entry.id === customer.defaultBillingAddressId || entry.id === customer.defaultShippingAddressId) && (
                    <p className="muted">
                      {[
                        entry.id === customer.defaultBillingAddressId ? t('admin.customers.defaultBilling') : null,
                        entry.id === customer.defaultShippingAddressId ? t('admin.customers.defaultShipping') : null,
                      ]
                        .filter(Boolean)
                        .join(' · ')}
                    </p>
                  )}
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>

      <section className="admin-card" aria-labelledby="customer-orders">
        <h2 id="customer-orders">{t('admin.customers.orders')}</h2>
        {ordersError && <Notice>{ordersError}</Notice>}
        {!orders && !ordersError && (
          <p className="muted" role="status">
            {t('admin.common.loading')}
          </p>
        )}
        {orders && orders.length === 0 && <p className="muted">{t('admin.customers.noOrders')}</p>}
        {orders && orders.length > 0 && (
          <div className="admin-table-scroll">
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">{t('admin.orders.columns.number')}</th>
                  <th scope="col">{t('admin.orders.columns.date')}</th>
                  <th scope="col">{t('admin.orders.columns.total')}</th>
                  <th scope="col">{t('admin.orders.columns.status')}</th>
                  <th scope="col">{t('admin.orders.columns.payment')}</th>
                  <th scope="col">{t('admin.orders.columns.delivery')}</th>
                </tr>
              </thead>
              <tbody>
                {orders.map((order) => (
                  <tr key={order.id}>
                    <td>
                      <Link to={adminPath(`orders/${order.id}`)}>{order.orderNumber}</Link>
                    </td>
                    <td>{date(order.orderDateTime)}</td>
                    <td className="admin-number">{formatMoney(order.amountTotal, order.currency?.isoCode, i18n.language)}</td>
                    <td>{labels.state('order', order.stateMachineState)}</td>
                    <td>{labels.state('order_transaction', currentTransaction(order)?.stateMachineState)}</td>
                    <td>{labels.state('order_delivery', primaryDelivery(order)?.stateMachineState)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </EditorPage>
  );
}
