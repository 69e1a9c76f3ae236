import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useStore } from 'zustand';
import { useLocalePath } from '@/lib/i18n';
import { customerStore, isLoggedIn } from '@/lib/shop/customer';

/** The person in the header: to the account, or to the login. */
export function AccountLink() {
  const { t } = useTranslation();
  const localePath = useLocalePath();
  const loggedIn = useStore(customerStore, (state) => isLoggedIn(state.customer));
  useEffect(() => {
    if (customerStore.getState().status === 'unknown') customerStore.getState().refresh().catch(() => undefined);
  }, []);
  return (
    <Link className="header-icon" to={localePath(loggedIn ? '/account' : '/account/login')} aria-label={loggedIn ? t('account.title') : t('account.loginTitle')}>
      <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
        <circle cx="12" cy="8" r="4" fill="none" stroke="currentColor" strokeWidth="1.8" />
        <path d="M4 20c1.5-4 4.5-6 8-6s6.5 2 8 6" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
      </svg>
      {loggedIn && <span className="header-icon__dot" aria-hidden="true" />}
    </Link>
  );
}
