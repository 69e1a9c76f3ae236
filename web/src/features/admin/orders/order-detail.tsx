import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { AddressLines } from '@/components/address-lines';
import { notify } from '@/lib/ui/notifications';
import type { StateMachineEntity, StateTransition } from '../api/client';
import { useAdminApi } from '../api/context';
import { errorText } from '../api/errors';
import { EditorPage } from '../components/editor-page';
import { Notice } from '../components/admin-page';
import { useAdminPath } from '../components/admin-path';
import { saveFile } from '../components/save-file';
import { addressOf } from './address';
import { formatDateTime, formatNumber } from '@/lib/format';
import { formatMoney, lineRates, pricesAreNet, taxLines } from './money';
import { APPOINTMENT_FIELD, currentTransaction, ORDER_DETAIL_ASSOCIATIONS, primaryDelivery } from './order-criteria';
import { useStateLabels } from './state-labels';
import { uniqueTransitions } from './transitions';
import type { AdminOrder, OrderDocument, StateHistoryEntry } from './types';

/** The documents the merchant can create, in Shopware's technical names. */
const DOCUMENT_TYPES = ['invoice', 'delivery_note', 'credit_note', 'storno'] as const;

/** What a machine's panel needs: its entity, the record's id, the transitions allowed now. */
interface Machine {
  entity: StateMachineEntity;
  id: string;
  transitions: StateTransition[] | null;
  error: string | null;
}

/** The appointment an order came from, as the server names it. */
const appointmentOf = (order: AdminOrder): string | null =>
  order.appointment?.id ?? order.appointmentId ?? ((order as unknown as Record<string, unknown>)[APPOINTMENT_FIELD] as string | null | undefined) ?? null;

/**
 * `/admin/orders/:id`: one order — its lines with prices and taxes, addresses, payment
 * and shipping, the appointment it was placed in, the transitions its three state
 * machines allow now (as buttons), its documents (create, download) and the history of
 * its state changes. Cancelling asks first: the stock goes back.
 */
export function OrderDetail() {
  const { id = '' } = useParams();
  const { t, i18n } = useTranslation();
  const api = useAdminApi();
  const adminPath = useAdminPath();
  const labels = useStateLabels();
  const [order, setOrder] = useState<AdminOrder | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [machines, setMachines] = useState<Machine[]>([]);
  const [history, setHistory] = useState<StateHistoryEntry[] | null>(null);
  const [historyError, setHistoryError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const [appointmentName, setAppointmentName] = useState<string | null>(null);

  const load = useCallback(
    () =>
      api
        .search<AdminOrder>('order', { ids: [id], limit: 1, associations: ORDER_DETAIL_ASSOCIATIONS })
        .then(async (found) => {
          const current = found.data[0];
          if (!current) {
            setLoadError(t('admin.orders.notFound'));
            return;
          }
          setOrder(current);
          setLoadError(null);
          const records: { entity: StateMachineEntity; id: string | undefined }[] = [
            { entity: 'order', id: current.id },
            { entity: 'order_transaction', id: currentTransaction(current)?.id },
            { entity: 'order_delivery', id: primaryDelivery(current)?.id },
          ];
          const next = await Promise.all(
            records
              .filter((record): record is { entity: StateMachineEntity; id: string } => !!record.id)
              .map(async (record) => {
                try {
                  const state = await api.stateOf(record.entity, record.id);
                  return { ...record, transitions: uniqueTransitions(state.transitions), error: null };
                } catch (failure) {
                  return { ...record, transitions: null, error: errorText(failure, t('admin.orders.transitionsFailed')) };
                }
              }),
          );
          setMachines(next);
          const referenced = [current.id, ...(current.transactions ?? []).map((entry) => entry.id), ...(current.deliveries ?? []).map((entry) => entry.id)];
          api
            .search<StateHistoryEntry>('state-machine-history', {
              limit: 100,
              filter: [{ type: 'equalsAny', field: 'referencedId', value: referenced }],
              associations: { fromStateMachineState: {}, toStateMachineState: {}, user: {} },
              sort: [{ field: 'createdAt', order: 'DESC' }],
        })
        .then((answer) => (setHistory(answer.data), setHistoryError(null)))
        .catch((failure: unknown) => setHistoryError(errorText(failure, t('admin.orders.historyFailed'))));
        })
        .catch((failure: unknown) => setLoadError(errorText(failure, t('admin.orders.loadFailed')))),
    [api, id, t],
  );

  useEffect(() => {
    void load();
  }, [load]);

  // The appointment's name (the order holds its id).
  const appointmentId = order ? appointmentOf(order) : null;
  useEffect(() => {
    if (!appointmentId || order?.appointment?.name) return;
    let live = true;
    api
      .search<{ id: string; name: string | null }>('dsr-appointment', { ids: [appointmentId], limit: 1 })
      .then((answer) => live && setAppointmentName(answer.data[0]?.name ?? null))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [api, appointmentId, order?.appointment?.name]);

  const run = async (key: string, work: () => Promise<unknown>, done: string) => {
    setBusy(key);
    setActionError(null);
    try {
      await work();
      notify(done, { type: 'success' });
      await load();
    } catch (failure) {
      setActionError(errorText(failure, t('admin.common.failed')));
    } finally {
      setBusy(null);
    }
  };

  const transition = (machine: Machine, step: StateTransition) => {
    if (machine.entity === 'order' && step.actionName === 'cancel' && !window.confirm(t('admin.orders.confirmCancel', { number: order?.orderNumber ?? '' }))) return;
    void run(`${machine.entity}:${step.actionName}`, () => api.transition(machine.entity, machine.id, step.actionName), t('admin.orders.stateChanged', { state: labels.state(machine.entity, step.toStateName) }));
  };

  const download = (doc: OrderDocument) =>
    run(`download:${doc.id}`, async () => saveFile(await api.downloadDocument(doc.id, doc.deepLinkCode)), t('admin.orders.documents.downloaded'));

  const title = order ? t('admin.orders.detailTitle', { number: order.orderNumber }) : t('admin.orders.title');
  const message = loadError ? ({ kind: 'error', text: loadError } as const) : null;

  if (!order) {
    return (
      <EditorPage title={title} backTo={adminPath('orders')} message={message}>
        {!loadError && (
          <p className="muted" role="status">
            {t('admin.common.loading')}
          </p>
        )}
      </EditorPage>
    );
  }

  const currency = order.currency?.isoCode;
  const money = (value: number | null | undefined) => formatMoney(value, currency, i18n.language);
  const date = (iso: string | null | undefined) => formatDateTime(iso, { locale: i18n.language }) || '—';
  const billing = order.addresses?.find((entry) => entry.id === order.billingAddressId) ?? order.addresses?.[0] ?? null;
  const delivery = primaryDelivery(order);
  const transaction = currentTransaction(order);
  const shipping = delivery?.shippingOrderAddress ?? null;
  const net = pricesAreNet(order.price);
  const lines = [...(order.lineItems ?? [])].sort((a, b) => (a.position ?? 0) - (b.position ?? 0));
  const documentName = (doc: OrderDocument) => {
    const type = doc.documentType?.technicalName ?? '';
    const own = (t('admin.orders.documents.types', { returnObjects: true }) as unknown as Record<string, string>)[type];
    return own ?? doc.documentType?.translated?.name ?? doc.documentType?.name ?? type;
  };
  const customerId = order.orderCustomer?.customerId;

  return (
    <EditorPage title={title} backTo={adminPath('orders')} message={message}>
      {actionError && <Notice>{actionError}</Notice>}
      <div className="admin-cards">
        <section className="admin-card" aria-labelledby="order-summary">
          <h2 id="order-summary">{t('admin.orders.summary')}</h2>
          <dl className="admin-facts">
            <dt>{t('admin.orders.columns.date')}</dt>
            <dd>{date(order.orderDateTime)}</dd>
            <dt>{t('admin.orders.columns.customer')}</dt>
            <dd>
              {order.orderCustomer ? `${order.orderCustomer.firstName} ${order.orderCustomer.lastName}` : '—'}
              {order.orderCustomer?.email && (
                <>
                  <br />
                  <span className="muted">{order.orderCustomer.email}</span>
                </>
              )}
              {customerId && (
                <>
                  <br />
                  <Link to={adminPath(`customers/${customerId}`)}>{t('admin.orders.openCustomer')}</Link>
                </>
              )}
            </dd>
            <dt>{t('admin.orders.columns.total')}</dt>
            <dd>{money(order.amountTotal)}</dd>
            <dt>{t('admin.orders.columns.appointment')}</dt>
            <dd data-testid="order-appointment">
              {appointmentId ? (
                <Link to={adminPath(`appointments/${appointmentId}`)}>{order.appointment?.name ?? appointmentName ?? t('admin.orders.appointmentLink')}</Link>
              ) : (
                t('admin.orders.noAppointment')
              )}
            </dd>
            {order.customerComment && (
              <>
                <dt>{t('admin.orders.comment')}</dt>
                <dd>{order.customerComment}</dd>
              </>
            )}
          </dl>
        </section>

        <section className="admin-card" aria-labelledby="order-states">
          <h2 id="order-states">{t('admin.orders.statesTitle')}</h2>
          {machines.map((machine) => {
            const current =
              machine.entity === 'order' ? order.stateMachineState : machine.entity === 'order_transaction' ? transaction?.stateMachineState : delivery?.stateMachineState;
            const heading = t(`admin.orders.machines.${machine.entity}`);
            return (
              <div key={machine.entity} className="admin-machine" role="group" aria-label={heading}>
                <p>
                  <strong>{heading}:</strong> <span data-testid={`state-${machine.entity}`}>{labels.state(machine.entity, current)}</span>
                </p>
                {machine.error && <Notice>{machine.error}</Notice>}
                {machine.transitions && machine.transitions.length === 0 && <p className="muted">{t('admin.orders.noTransitions')}</p>}
                {machine.transitions && machine.transitions.length > 0 && (
                  <div className="admin-toolbar">
                    {machine.transitions.map((step) => {
                      const key = `${machine.entity}:${step.actionName}`;
                      return (
                        <button
                          key={step.actionName}
                          type="button"
                          className={`button button--small${step.actionName === 'cancel' ? ' button--danger-outline' : ''}`}
                          disabled={busy !== null}
                          aria-busy={busy === key}
                          onClick={() => transition(machine, step)}
                        >
                          {busy === key ? t('admin.common.working') : labels.action(machine.entity, step)}
                        </button>
                      );
                    })}
                  </div>
                )}
              </div>
            );
          })}
          {machines.length === 0 && (
            <p className="muted" role="status">
              {t('admin.common.loading')}
            </p>
          )}
        </section>
      </div>

      <section className="admin-card" aria-labelledby="order-lines">
        <h2 id="order-lines">{t('admin.orders.lines')}</h2>
        {lines.length === 0 ? (
          <p className="muted">{t('admin.orders.noLines')}</p>
        ) : (
          <div className="admin-table-scroll">
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">{t('admin.orders.line.product')}</th>
                  <th scope="col" className="admin-number">
                    {t('admin.orders.line.quantity')}
                  </th>
                  <th scope="col" className="admin-number">
                    {net ? t('admin.orders.line.unitNet') : t('admin.orders.line.unitGross')}
                  </th>
                  <th scope="col" className="admin-number">
                    {t('admin.orders.line.taxRate')}
                  </th>
                  <th scope="col" className="admin-number">
                    {net ? t('admin.orders.line.totalNet') : t('admin.orders.line.totalGross')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {lines.map((line) => (
                  <tr key={line.id} data-testid="admin-order-line">
                    <td>
                      {line.label}
                      {line.payload?.productNumber && (
                        <>
                          <br />
                          <span className="muted">{line.payload.productNumber}</span>
                        </>
                      )}
                      {line.payload?.options?.length ? (
                        <>
                          <br />
                          <span className="muted">{line.payload.options.map((option) => `${option.group}: ${option.option}`).join(', ')}</span>
                        </>
                      ) : null}
                    </td>
                    <td className="admin-number">{line.quantity}</td>
                    <td className="admin-number">{money(line.unitPrice)}</td>
                    <td className="admin-number">{lineRates(line, i18n.language)}</td>
                    <td className="admin-number">{money(line.totalPrice)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <dl className="admin-totals">
          {[
            { key: 'positions', label: t('admin.orders.totals.positions'), value: order.positionPrice ?? order.price?.positionPrice },
            { key: 'shipping', label: t('admin.orders.totals.shipping'), value: order.shippingTotal ?? order.shippingCosts?.totalPrice },
            { key: 'net', label: t('admin.orders.totals.net'), value: order.amountNet },
            ...taxLines(order.price).map((line) => ({
              key: `tax-${line.rate}`,
              label: t('admin.orders.totals.tax', { rate: formatNumber(line.rate, i18n.language) }),
              value: line.tax,
            })),
            { key: 'total', label: t('admin.orders.totals.total'), value: order.amountTotal },
          ].map((row) => (
            <div key={row.key} className={row.key === 'total' ? 'admin-totals__grand' : undefined}>
              <dt>{row.label}</dt>
              <dd>{money(row.value)}</dd>
            </div>
          ))}
        </dl>
      </section>

      <div className="admin-cards">
        <section className="admin-card" aria-labelledby="order-billing">
          <h2 id="order-billing">{t('admin.orders.billingAddress')}</h2>
          {billing ? <AddressLines address={addressOf(billing)} /> : <p className="muted">—</p>}
        </section>
        <section className="admin-card" aria-labelledby="order-shipping-address">
          <h2 id="order-shipping-address">{t('admin.orders.shippingAddress')}</h2>
          {shipping ? <AddressLines address={addressOf(shipping)} /> : billing ? <AddressLines address={addressOf(billing)} /> : <p className="muted">—</p>}
        </section>
        <section className="admin-card" aria-labelledby="order-payment">
          <h2 id="order-payment">{t('admin.orders.paymentAndShipping')}</h2>
          <dl className="admin-facts">
            <dt>{t('admin.orders.paymentMethod')}</dt>
            <dd>{transaction?.paymentMethod?.translated?.name ?? transaction?.paymentMethod?.name ?? '—'}</dd>
            <dt>{t('admin.orders.shippingMethod')}</dt>
            <dd>{delivery?.shippingMethod?.translated?.name ?? delivery?.shippingMethod?.name ?? '—'}</dd>
            {delivery?.trackingCodes?.length ? (
              <>
                <dt>{t('admin.orders.trackingCodes')}</dt>
                <dd>{delivery.trackingCodes.join(', ')}</dd>
              </>
            ) : null}
          </dl>
        </section>
      </div>

      <section className="admin-card" aria-labelledby="order-documents">
        <h2 id="order-documents">{t('admin.orders.documents.title')}</h2>
        {(order.documents ?? []).length === 0 ? (
          <p className="muted">{t('admin.orders.documents.none')}</p>
        ) : (
          <ul className="admin-documents">
            {(order.documents ?? []).map((doc) => (
              <li key={doc.id}>
                <span>
                  {documentName(doc)} {doc.config?.documentNumber ?? doc.documentNumber ?? ''} <span className="muted">· {date(doc.createdAt)}</span>
                </span>
                <button type="button" className="button button--small" disabled={busy !== null} aria-busy={busy === `download:${doc.id}`} onClick={() => void download(doc)}>
                  {busy === `download:${doc.id}`
                    ? t('admin.common.working')
                    : t('admin.orders.documents.download', { name: `${documentName(doc)} ${doc.config?.documentNumber ?? doc.documentNumber ?? ''}`.trim() })}
                </button>
              </li>
            ))}
          </ul>
        )}
        <div className="admin-toolbar">
          {DOCUMENT_TYPES.map((type) => {
            const name = (t('admin.orders.documents.types', { returnObjects: true }) as unknown as Record<string, string>)[type] ?? type;
            return (
              <button
                key={type}
                type="button"
                className="button button--small"
                disabled={busy !== null}
                aria-busy={busy === `create:${type}`}
                onClick={() => void run(`create:${type}`, () => api.createDocument(order.id, type), t('admin.orders.documents.created', { name }))}
              >
                {busy === `create:${type}` ? t('admin.common.working') : t('admin.orders.documents.create', { name })}
              </button>
            );
          })}
        </div>
      </section>

      <section className="admin-card" aria-labelledby="order-history">
        <h2 id="order-history">{t('admin.orders.history.title')}</h2>
        {historyError && <Notice>{historyError}</Notice>}
        {!history && !historyError && (
          <p className="muted" role="status">
            {t('admin.common.loading')}
          </p>
        )}
        {history && history.length === 0 && <p className="muted">{t('admin.orders.history.none')}</p>}
        {history && history.length > 0 && (
          <div className="admin-table-scroll">
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">{t('admin.orders.history.when')}</th>
                  <th scope="col">{t('admin.orders.history.what')}</th>
                  <th scope="col">{t('admin.orders.history.from')}</th>
                  <th scope="col">{t('admin.orders.history.to')}</th>
                  <th scope="col">{t('admin.orders.history.who')}</th>
                </tr>
              </thead>
              <tbody>
                {history.map((entry) => {
                  const machine = (['order', 'order_transaction', 'order_delivery'] as const).find((name) => name === entry.entityName) ?? 'order';
                  return (
                    <tr key={entry.id}>
                      <td>{date(entry.createdAt)}</td>
                      <td>{t(`admin.orders.machines.${machine}`)}</td>
                      <td>{labels.state(machine, entry.fromStateMachineState)}</td>
                      <td>{labels.state(machine, entry.toStateMachineState)}</td>
                      <td>{entry.user ? (entry.user.username ?? `${entry.user.firstName ?? ''} ${entry.user.lastName ?? ''}`.trim()) : t('admin.orders.history.system')}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </EditorPage>
  );
}
