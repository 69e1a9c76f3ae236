import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { useAdminSession } from '../api/context';
import { Notice } from '../components/admin-page';
import { useAdminPath } from '../components/admin-path';

/** Logged out: to `/admin/login`, which comes back here after the login. */
export function RequireSession({ children }: { children: ReactNode }) {
  const session = useAdminSession();
  const location = useLocation();
  const adminPath = useAdminPath();
  if (!session) return <Navigate to={adminPath('login')} replace state={{ from: `${location.pathname}${location.search}` }} />;
  return children;
}

/** Only for the admin role; a guide is told that this is not for them. */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const session = useAdminSession();
  if (session?.role !== 'admin') return <Notice>{t('serverErrors.codes.FRAMEWORK__MISSING_PRIVILEGE_ERROR')}</Notice>;
  return children;
}
