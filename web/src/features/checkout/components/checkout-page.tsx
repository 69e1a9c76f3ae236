import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate } from 'react-router';
import { useStore } from 'zustand';
import { Field } from '@/components/form';
import { Spinner } from '@/components/spinner';
import { LoginForm } from '@/components/account/login-form';
import { RegisterForm } from '@/components/account/register-form';
import { messagesOf } from '@/lib/api/messages';
import { CartItem } from '@/components/cart/cart-item';
import { cartErrorText, showCartErrors } from '@/components/cart/cart-errors';
import { CartSummary, PromotionCode } from '@/components/cart/cart-summary';
import { useDocumentTitle } from '@/lib/head';
import { localeFromPath, localePrefix, useLocalePath } from '@/lib/i18n';
import { cartErrors, cartStore } from '@/lib/shop/cart';
import { customerStore } from '@/lib/shop/customer';
import { modalStore } from '@/lib/ui/modal';
import { toast } from '@/lib/ui/toasts';
import { getPaymentMethods, getShippingMethods, handlePayment, type PaymentMethod, type ShippingMethod } from '@/lib/shop/orders';
import { placeOrder, readContext, updateContext, type Context } from '../api/checkout';
import { blockingKeyOf, checkoutBlockers, hasDigitalGoods, hasProducts, paymentTarget, paymentUrls } from '@/lib/shop/checkout-rules';
import { AddressLines } from '@/components/address-lines';
import type { CustomerAddress } from '@/lib/shop/addresses';
import { AddressPicker } from './address-picker';
import { MethodList } from '@/components/order/method-list';
import { ShopPageLink } from '@/components/shop-page/shop-page-modal';
import '@/components/order/checkout-section.css';
import './checkout-page.css';

/** Login, or registration (also as a guest), before the order. */
function Identify({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<'login' | 'register'>('login');
  return (
    <section className="checkout-section checkout-identify" aria-labelledby="checkout-identify">
      <h2 id="checkout-identify" className="section-title">
        {t('checkout.identify')}
      </h2>
      <p className="muted">{t('checkout.identifyLead')}</p>
      <div className="tabs" role="tablist" aria-label={t('checkout.identify')}>
        {(['login', 'register'] as const).map((name) => (
          <button key={name} type="button" role="tab" id={`checkout-tab-${name}`} aria-controls={`checkout-panel-${name}`} aria-selected={tab === name} className="tabs__tab" onClick={() => setTab(name)}>
            {name === 'login' ? t('checkout.loginTab') : t('checkout.registerTab')}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`checkout-panel-${tab}`} aria-labelledby={`checkout-tab-${tab}`}>
        {tab === 'login' ? <LoginForm embedded onLoggedIn={onDone} /> : <RegisterForm embedded allowGuest onRegistered={onDone} />}
      </div>
    </section>
  );
}

type AddressKind = 'billing' | 'shipping';

/** `/checkout`: who orders, addresses, shipping and payment, summary, terms, place order. */
export function CheckoutPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const { cart, status: cartStatus } = useStore(cartStore);
  const { customer, status: customerStatus } = useStore(customerStore);
  const [context, setContext] = useState<Context | null>(null);
  const [shippingMethods, setShippingMethods] = useState<ShippingMethod[]>([]);
  const [paymentMethods, setPaymentMethods] = useState<PaymentMethod[]>([]);
  const [loadFailed, setLoadFailed] = useState(false);
  const [changing, setChanging] = useState(false);
  const [tos, setTos] = useState(false);
  const [waiver, setWaiver] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const [placing, setPlacing] = useState(false);
  const [failure, setFailure] = useState<string[]>([]);
  useDocumentTitle(t('checkout.title'));

  const load = useCallback(
    () =>
      Promise.all([readContext(), getShippingMethods(), getPaymentMethods()]).then(
        ([nextContext, shipping, payment]) => {
          setLoadFailed(false);
          setContext(nextContext);
          setShippingMethods(shipping);
          setPaymentMethods(payment);
        },
        () => setLoadFailed(true),
      ),
    [],
  );

  useEffect(() => {
    customerStore.getState().refresh().catch(() => undefined);
    cartStore.getState().refresh().then(showCartErrors).catch(() => undefined);
    void load();
  }, [load]);

  const hasCustomer = !!customer?.id;
  const [restoring, setRestoring] = useState(false);
  const afterIdentify = async () => {
    setRestoring(true);
    try {
      // Login and registration start a new session that carries the visitor's cart.
      await cartStore.getState().refresh();
      showCartErrors();
    } catch {
      // The summary shows the cart as it is.
    } finally {
      setRestoring(false);
    }
    void load();
  };

  const [pending, setPending] = useState<{ shippingMethodId?: string; paymentMethodId?: string }>({});
  const chooseMethod = async (kind: 'shippingMethodId' | 'paymentMethodId', id: string) => {
    setPending((current) => ({ ...current, [kind]: id }));
    setChanging(true);
    try {
      await updateContext({ [kind]: id });
      await Promise.all([load(), cartStore.getState().refresh()]);
      showCartErrors();
    } catch {
      toast({ content: t('checkout.methodFailed'), variant: 'danger' });
    } finally {
      setPending((current) => ({ ...current, [kind]: undefined }));
      setChanging(false);
    }
  };

  const changeAddress = async (kind: AddressKind, address: CustomerAddress) => {
    modalStore.getState().close();
    setChanging(true);
    try {
      await updateContext(kind === 'billing' ? { billingAddressId: address.id } : { shippingAddressId: address.id });
      await Promise.all([load(), cartStore.getState().refresh()]);
      showCartErrors();
      toast({ content: t('checkout.addressChanged'), variant: 'success' });
    } catch {
      toast({ content: t('account.addressActionFailed'), variant: 'danger' });
    } finally {
      setChanging(false);
    }
  };

  const pickAddress = (kind: AddressKind) => {
    const current = kind === 'billing' ? context?.customer?.activeBillingAddress : context?.customer?.activeShippingAddress;
    modalStore.getState().open(
      <AddressPicker
        selectedId={current?.id}
        onPick={(address) => void changeAddress(kind, address)}
      />,
      { title: `${t('checkout.change')}: ${kind === 'billing' ? t('checkout.billingAddress') : t('checkout.shippingAddress')}`, size: 'medium' },
    );
  };

  if (!placing && !restoring && cart && cartStatus === 'ready' && !hasProducts(cart)) return <Navigate to={localePath('/checkout/cart')} replace />;
  if (!cart || !context || customerStatus !== 'known') {
    if (loadFailed || cartStatus === 'failed') {
      return (
        <div className="container checkout-page">
          <div className="empty-state" role="alert">
            <p>{t('checkout.loadFailed')}</p>
            <button
              type="button"
              className="button button--primary"
              onClick={() => {
                setLoadFailed(false);
                void load();
              }}
            >
              {t('checkout.retry')}
            </button>
          </div>
        </div>
      );
    }
    return (
      <div className="container checkout-page">
        <Spinner />
      </div>
    );
  }

  const errors = cartErrors(cart);
  const blocking = errors.filter((error) => blockingKeyOf(error) || error.level >= 20);
  const digital = hasDigitalGoods(cart);
  const shippingMethodId = pending.shippingMethodId ?? context.shippingMethod?.id;
  const paymentMethodId = pending.paymentMethodId ?? context.paymentMethod?.id;
  const blockers = checkoutBlockers({ cart, hasCustomer, shippingMethodId, paymentMethodId, tos, waiver, blockingErrors: blocking.length });

  const place = async () => {
    setSubmitted(true);
    setFailure([]);
    if (blockers.length > 0) return;
    setPlacing(true);
    let orderId: string;
    try {
      orderId = (await placeOrder()).id;
    } catch (error) {
      setFailure(messagesOf(error, t('checkout.orderFailed')));
      setPlacing(false);
      cartStore.getState().refresh().then(showCartErrors).catch(() => undefined);
      return;
    }
    cartStore.getState().refresh().catch(() => undefined);
    const prefix = localePrefix(localeFromPath(window.location.pathname));
    const urls = paymentUrls(window.location.origin, prefix, orderId);
    try {
      const target = paymentTarget(await handlePayment(orderId, urls.finishUrl, urls.errorUrl), urls.success);
      if (target.kind === 'external') window.location.assign(target.url);
      else void navigate(target.path, { replace: true });
    } catch {
      void navigate(`${urls.success}/unpaid`, { replace: true });
    }
  };

  const billing = context.customer?.activeBillingAddress;
  const shipping = context.customer?.activeShippingAddress;
  const items = cart.lineItems ?? [];

  return (
    <div className="container checkout-page">
      <header className="page-header checkout-page__header">
        <h1 className="page-title">{t('checkout.title')}</h1>
        <Link to={localePath('/checkout/cart')}>{t('checkout.backToCart')}</Link>
      </header>
      {blocking.length > 0 && (
        <ul className="alert checkout-page__errors" role="alert">
          {blocking.map((error) => (
            <li key={error.key}>{cartErrorText(error)}</li>
          ))}
        </ul>
      )}
      <div className="checkout-page__grid">
        <div className="checkout-page__main">
          {!hasCustomer ? (
            <Identify onDone={() => void afterIdentify()} />
          ) : (
            <>
              <section className="checkout-section" aria-labelledby="checkout-addresses">
                <h2 id="checkout-addresses" className="section-title">
                  {t('checkout.addresses')}
                </h2>
                <div className="checkout-addresses">
                  {(
                    [
                      ['billing', billing],
                      ['shipping', shipping],
                    ] as const
                  ).map(([kind, address]) => (
                    <div key={kind} className="account-card checkout-address" data-testid={`${kind}-address`}>
                      <h3>{kind === 'billing' ? t('checkout.billingAddress') : t('checkout.shippingAddress')}</h3>
                      {address ? <AddressLines address={address} /> : <p className="muted">{t('checkout.noAddress')}</p>}
                      <button
                        type="button"
                        className="button button--small"
                        disabled={changing}
                        aria-label={`${t('checkout.change')}: ${kind === 'billing' ? t('checkout.billingAddress') : t('checkout.shippingAddress')}`}
                        onClick={() => pickAddress(kind)}
                      >
                        {t('checkout.change')}
                      </button>
                    </div>
                  ))}
                </div>
              </section>
              <MethodList
                title={t('checkout.shippingMethods')}
                busy={changing}
                selectedId={shippingMethodId}
                onChoose={(id) => void chooseMethod('shippingMethodId', id)}
                options={shippingMethods.map((method) => ({
                  id: method.id,
                  name: method.translated?.name ?? method.name,
                  description: method.deliveryTime ? (method.deliveryTime.translated?.name ?? method.deliveryTime.name) : null,
                }))}
              />
              <MethodList
                title={t('checkout.paymentMethods')}
                busy={changing}
                selectedId={paymentMethodId}
                onChoose={(id) => void chooseMethod('paymentMethodId', id)}
                options={paymentMethods.map((method) => ({ id: method.id, name: method.translated?.name ?? method.name, description: method.translated?.description ?? method.description }))}
              />
            </>
          )}
        </div>
        <aside className="checkout-page__aside" aria-labelledby="checkout-summary">
          <h2 id="checkout-summary" className="section-title">
            {t('checkout.summary')}
          </h2>
          <ul className="checkout-page__items" aria-label={t('checkout.items')}>
            {items.map((item) => (
              <CartItem key={item.id} item={item} compact />
            ))}
          </ul>
          <PromotionCode />
          <CartSummary cart={cart} />
          {hasCustomer && (
            <div className="checkout-confirm">
              <Field type="checkbox" label={t('checkout.terms')} name="tos" checked={tos} onChange={(event) => setTos(event.target.checked)} error={submitted && !tos ? t('checkout.termsRequired') : null} />
              <p className="field__hint">
                <ShopPageLink name="tos">{t('legal.readTerms')}</ShopPageLink>
                <ShopPageLink name="privacy">{t('legal.readPrivacy')}</ShopPageLink>
              </p>
              {digital && (
                <Field type="checkbox" label={t('checkout.waiver')} name="waiver" checked={waiver} onChange={(event) => setWaiver(event.target.checked)} error={submitted && !waiver ? t('checkout.waiverRequired') : null} />
              )}
              {submitted && (blockers.includes('shipping') || blockers.includes('payment')) && (
                <p className="alert" role="alert">
                  {t('checkout.methodRequired')}
                </p>
              )}
              {failure.length > 0 && (
                <ul className="alert" role="alert">
                  {failure.map((message) => (
                    <li key={message}>{message}</li>
                  ))}
                </ul>
              )}
              <button type="button" className="button button--primary button--wide" disabled={placing || changing} onClick={() => void place()}>
                {placing ? t('checkout.placing') : t('checkout.placeOrder')}
              </button>
            </div>
          )}
        </aside>
      </div>
    </div>
  );
}
