import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { Spinner } from '@/components/spinner';
import { errorStatus } from '@/lib/api/shop';
import { useDocumentTitle } from '@/lib/head';
import { useLocalePath } from '@/lib/i18n';
import { formatDate, formatPrice } from '@/lib/format';
import { toast } from '@/lib/ui/toasts';
import { useStore } from 'zustand';
import { customerStore, isLoggedIn } from '@/lib/shop/customer';
import { changeOrderPayment, getOrder, getPaymentMethods, payAgain, type Order, type PaymentMethod } from '@/lib/shop/orders';
import { lastTransaction, OrderDetails } from '@/components/order/order-details';
import { MethodList } from '@/components/order/method-list';
import './success-page.css';

export type ResultVariant = 'confirmation' | 'paid' | 'unpaid';

/** Retry the payment or choose another method first (the unpaid page). */
function Repay({ order, changeable, onChanged }: { order: Order; changeable: boolean; onChanged: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [methods, setMethods] = useState<PaymentMethod[]>([]);
  const [busy, setBusy] = useState(false);
  const current = lastTransaction(order)?.paymentMethodId;
  useEffect(() => {
    if (changeable) getPaymentMethods().then(setMethods).catch(() => setMethods([]));
  }, [changeable]);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } catch {
      toast({ content: t('checkout.paymentFailed'), variant: 'danger' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="repay">
      {changeable && (
        <MethodList
          title={t('account.changePayment')}
          busy={busy}
          selectedId={current}
          options={methods.map((method) => ({ id: method.id, name: method.translated?.name ?? method.name, description: method.translated?.description ?? method.description }))}
          onChoose={(id) =>
            void run(async () => {
              await changeOrderPayment(order.id, id);
              toast({ content: t('account.paymentChanged'), variant: 'success' });
              onChanged();
            })
          }
        />
      )}
      <button type="button" className="button button--primary" disabled={busy || !changeable} onClick={() => void run(() => payAgain(order.id, (path) => void navigate(path, { replace: true })))}>
        {t('checkout.retryPayment')}
      </button>
    </div>
  );
}

/** `/checkout/success/{id}` and its `/paid` and `/unpaid` results. */
export function SuccessPage({ variant }: { variant: ResultVariant }) {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const localePath = useLocalePath();
  const loggedIn = useStore(customerStore, (current) => isLoggedIn(current.customer));
  const [state, setState] = useState<{ order: Order | null; paymentChangeable: boolean } | 'loading' | 'failed'>('loading');
  const title = variant === 'paid' ? t('checkout.paidTitle') : variant === 'unpaid' ? t('checkout.unpaidTitle') : t('checkout.successTitle');
  useDocumentTitle(title);

  const load = useCallback(() => {
    getOrder(id)
      .then(setState)
      // Someone else's order, nobody logged in, or an id that is none: as good as unknown.
      .catch((error: unknown) => setState([400, 401, 403, 404].includes(errorStatus(error)) ? { order: null, paymentChangeable: false } : 'failed'));
  }, [id]);
  useEffect(load, [load]);

  if (state === 'loading') return <div className="container result-page"><Spinner /></div>;
  if (state === 'failed' || !state.order) {
    return (
      <div className="container result-page">
        <div className="empty-state" role="alert">
          <p>{state === 'failed' ? t('errors.generic') : t('checkout.orderNotFound')}</p>
          <Link className="button button--primary" to={localePath('/') || '/'}>
            {t('checkout.continueShopping')}
          </Link>
        </div>
      </div>
    );
  }
  const { order, paymentChangeable } = state;
  const lead =
    variant === 'paid'
      ? t('checkout.paidLead', { number: order.orderNumber ?? '' })
      : variant === 'unpaid'
        ? t('checkout.unpaidLead', { number: order.orderNumber ?? '' })
        : t('checkout.successLead', { number: order.orderNumber ?? '', email: order.orderCustomer?.email ?? '' });

  return (
    <div className="container result-page">
      <header className={`result-page__header result-page__header--${variant}`}>
        <span className="result-page__icon" aria-hidden="true">
          {variant === 'unpaid' ? '!' : '✓'}
        </span>
        <div>
          <h1 className="page-title">{title}</h1>
          <p>{lead}</p>
        </div>
      </header>
      {variant === 'unpaid' && <Repay order={order} changeable={paymentChangeable} onChanged={load} />}
      <dl className="result-page__facts">
        <div>
          <dt>{t('checkout.orderNumber')}</dt>
          <dd data-testid="order-number">{order.orderNumber}</dd>
        </div>
        <div>
          <dt>{t('checkout.orderDate')}</dt>
          <dd>{formatDate(order.orderDateTime)}</dd>
        </div>
        <div>
          <dt>{t('cart.total')}</dt>
          <dd>{formatPrice(order.amountTotal)}</dd>
        </div>
      </dl>
      <OrderDetails order={order} />
      <div className="result-page__actions">
        <Link className="button button--primary" to={localePath('/') || '/'}>
          {t('checkout.continueShopping')}
        </Link>
        {loggedIn && (
          <Link className="button" to={localePath('/account')}>
            {t('checkout.toOrders')}
          </Link>
        )}
      </div>
    </div>
  );
}
