import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { useStore } from 'zustand';
import { Spinner } from '@/components/spinner';
import { useDocumentTitle } from '@/lib/head';
import { useLocalePath } from '@/lib/i18n';
import { cartStore } from '@/lib/shop/cart';
import { customerStore, isLoggedIn } from '@/lib/shop/customer';
import { toast } from '@/lib/ui/toasts';
import { Addresses } from './addresses';
import { NewsletterCard } from './newsletter-card';
import { Orders } from './orders';
import { ProfileCard } from './profile-forms';
import { ShoppingLists } from './shopping-lists';
import './account-page.css';

/** The account overview; without a login it goes to the login page. */
export function AccountPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const { pathname } = useLocation();
  const { customer, status } = useStore(customerStore);
  useDocumentTitle(t('account.title'));
  useEffect(() => {
    customerStore.getState().refresh().catch(() => undefined);
  }, []);

  if (status !== 'known') return <Spinner />;
  if (!isLoggedIn(customer)) return <Navigate to={`${localePath('/account/login')}?redirect=${encodeURIComponent(pathname)}`} replace />;
  const name = [customer!.firstName, customer!.lastName].filter(Boolean).join(' ');

  const logOut = async () => {
    await customerStore.getState().logout().catch(() => undefined);
    cartStore.getState().refresh().catch(() => undefined);
    toast({ content: t('account.loggedOut'), variant: 'info' });
    void navigate(localePath('/') || '/', { replace: true });
  };

  return (
    <div className="container account-page">
      <header className="page-header account-page__header">
        <div>
          <h1 className="page-title">{t('account.hello', { name })}</h1>
          <p className="muted">{t('account.customerNumber', { number: customer!.customerNumber })}</p>
        </div>
        <button type="button" className="button" onClick={() => void logOut()}>
          {t('account.logOut')}
        </button>
      </header>
      <div className="account-grid account-grid--top">
        <ProfileCard customer={customer!} />
        <NewsletterCard customer={customer!} />
      </div>
      <Orders />
      <ShoppingLists />
      <Addresses customer={customer!} />
    </div>
  );
}
