import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Spinner } from '@/components/spinner';
import { cancelOrder, changeOrderPayment, getPaymentMethods, listOrders, payAgain, type Order, type PaymentMethod } from '@/lib/shop/orders';
import { MethodList } from '@/components/order/method-list';
import { lastTransaction, OrderDetails } from '@/components/order/order-details';
import { formatDate, formatPrice } from '@/lib/format';
import { modalStore } from '@/lib/ui/modal';
import { toast } from '@/lib/ui/toasts';
import { EmptyShopping } from '@/components/empty-state';
import './orders.css';

const PAGE_SIZE = 5;

type Named = { name?: string; translated?: { name?: string }; technicalName?: string } | null | undefined;
const nameOf = (entity: Named) => entity?.translated?.name ?? entity?.name ?? '';

function ConfirmCancel({ order, onCancelled }: { order: Order; onCancelled: () => void }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const cancel = async () => {
    setBusy(true);
    try {
      await cancelOrder(order.id);
      modalStore.getState().close();
      toast({ content: t('account.orderCancelled'), variant: 'success' });
      onCancelled();
    } catch {
      toast({ content: t('errors.generic'), variant: 'danger' });
      setBusy(false);
    }
  };
  return (
    <div className="confirm-dialog">
      <p>{t('account.cancelText')}</p>
      <div className="confirm-dialog__actions">
        <button type="button" className="button" onClick={() => modalStore.getState().close()} autoFocus>
          {t('account.keepOrder')}
        </button>
        <button
          type="button"
          className="button button--danger"
          disabled={busy}
          onClick={() => void cancel()}
        >
          {t('account.cancelOrder')}
        </button>
      </div>
    </div>
  );
}

function ChangePayment({ order, onChanged }: { order: Order; onChanged: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [methods, setMethods] = useState<PaymentMethod[] | null>(null);
  const [selected, setSelected] = useState(lastTransaction(order)?.paymentMethodId ?? null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    getPaymentMethods()
      .then(setMethods)
      .catch(() => setMethods([]));
  }, []);
  if (!methods) return <Spinner />;
  const changeAndPay = async () => {
    if (!selected) return;
    setBusy(true);
    try {
      await changeOrderPayment(order.id, selected);
      modalStore.getState().close();
      toast({ content: t('account.paymentChanged'), variant: 'success' });
      onChanged();
      await payAgain(order.id, (path) => void navigate(path));
    } catch {
      toast({ content: t('checkout.paymentFailed'), variant: 'danger' });
      setBusy(false);
    }
  };
  return (
    <div className="change-payment">
      <MethodList
        title={t('checkout.paymentMethods')}
        busy={busy}
        selectedId={selected}
        options={methods.map((method) => ({ id: method.id, name: method.translated?.name ?? method.name, description: method.translated?.description ?? method.description }))}
        onChoose={setSelected}
      />
      <button
        type="button"
        className="button button--primary"
        disabled={busy || !selected}
        onClick={() => void changeAndPay()}
      >
        {t('checkout.retryPayment')}
      </button>
    </div>
  );
}

/** One order in the list: number, date, states, total; details, cancel, change payment. */
function OrderCard({ order, changeable, onChange }: { order: Order; changeable: boolean; onChange: () => void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const state = order.stateMachineState as Named;
  const cancelled = state?.technicalName === 'cancelled';
  const detailsId = `order-${order.id}`;
  return (
    <li className="order-card" data-testid="order-card">
      <div className="order-card__head">
        <div>
          <h3>{t('account.orderTitle', { number: order.orderNumber ?? '' })}</h3>
          <p className="muted">{t('account.orderDate', { date: formatDate(order.orderDateTime) })}</p>
        </div>
        <p className="order-card__total">{formatPrice(order.amountTotal)}</p>
      </div>
      <dl className="order-card__states">
        <div>
          <dt>{t('account.orderState')}</dt>
          <dd data-testid="order-state">{nameOf(state)}</dd>
        </div>
        <div>
          <dt>{t('account.paymentState')}</dt>
          <dd>{nameOf(lastTransaction(order)?.stateMachineState)}</dd>
        </div>
        <div>
          <dt>{t('account.deliveryState')}</dt>
          <dd>{nameOf(order.deliveries?.[0]?.stateMachineState)}</dd>
        </div>
      </dl>
      <div className="order-card__actions">
        <button type="button" className="button button--small" aria-expanded={open} aria-controls={detailsId} onClick={() => setOpen(!open)}>
          {open ? t('account.hideDetails') : t('account.details')}
        </button>
        {changeable && (
          <button type="button" className="button button--small" onClick={() => modalStore.getState().open(<ChangePayment order={order} onChanged={onChange} />, { title: t('account.changePayment'), size: 'medium' })}>
            {t('account.changePayment')}
          </button>
        )}
        {!cancelled && changeable && (
          <button
            type="button"
            className="button button--small button--danger-outline"
            onClick={() => modalStore.getState().open(<ConfirmCancel order={order} onCancelled={onChange} />, { title: t('account.cancelTitle', { number: order.orderNumber ?? '' }), size: 'small' })}
          >
            {t('account.cancelOrder')}
          </button>
        )}
      </div>
      {open && (
        <div id={detailsId}>
          <OrderDetails order={order} />
        </div>
      )}
    </li>
  );
}

/** The customer's orders, newest first, paged. */
export function Orders() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [state, setState] = useState<Awaited<ReturnType<typeof listOrders>> | 'loading' | 'failed'>('loading');
  const load = useCallback(() => {
    listOrders(page, PAGE_SIZE)
      .then(setState)
      .catch(() => setState('failed'));
  }, [page]);
  useEffect(load, [load]);

  const pages = state !== 'loading' && state !== 'failed' ? Math.max(1, Math.ceil(state.total / PAGE_SIZE)) : 1;
  return (
    <section className="orders" aria-labelledby="orders-title">
      <h2 id="orders-title" className="section-title">
        {t('account.orders')}
      </h2>
      {state === 'loading' ? (
        <Spinner />
      ) : state === 'failed' ? (
        <p className="alert" role="alert">
          {t('account.ordersFailed')}
        </p>
      ) : state.orders.length === 0 ? (
        <EmptyShopping text={t('account.ordersEmpty')} />
      ) : (
        <>
          <ul className="orders__list">
            {state.orders.map((order) => (
              <OrderCard key={order.id} order={order} changeable={!!state.paymentChangeable[order.id]} onChange={load} />
            ))}
          </ul>
          {pages > 1 && (
            <nav className="orders__pages" aria-label={t('account.orders')}>
              <button type="button" className="button button--small" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                {t('account.previous')}
              </button>
              <span>{t('account.page', { page, pages })}</span>
              <button type="button" className="button button--small" disabled={page >= pages} onClick={() => setPage(page + 1)}>
                {t('account.next')}
              </button>
            </nav>
          )}
        </>
      )}
    </section>
  );
}
