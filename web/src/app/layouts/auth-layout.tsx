import { useTranslation } from 'react-i18next';
import { Link, Outlet } from 'react-router';
import { useLocalePath } from '@/lib/i18n';
import './auth-layout.css';

/** Login and registration: the brand and a centred form, nothing to wander off to. */
export function AuthLayout() {
  const { t } = useTranslation();
  const localePath = useLocalePath();
  return (
    <div className="auth-layout">
      <header className="auth-layout__header">
        <Link className="brand" to={localePath('/') || '/'}>
          {t('app.name')}
        </Link>
      </header>
      <main id="main" className="auth-layout__main">
        <Outlet />
      </main>
    </div>
  );
}
