import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { Field } from '@/components/form';
import { LocaleSwitcher } from '@/components/locale-switcher';
import { useAdminApi, useAdminSession } from '../api/context';
import { AdminApiError, errorText } from '../api/errors';
import { Notice } from '../components/admin-page';
import { useAdminPath } from '../components/admin-path';

/** `/admin/login`: username and password of an admin or guide user (Admin API password grant). */
export function LoginPage() {
  const { t } = useTranslation();
  const api = useAdminApi();
  const session = useAdminSession();
  const adminPath = useAdminPath();
  const from = (useLocation().state as { from?: string } | null)?.from;
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (session) return <Navigate to={from ?? adminPath()} replace />;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      // The session's arrival renders the <Navigate> above: one navigation, not two racing
      // (a second one to the same path left the index route's redirect behind).
      await api.login(username.trim(), password);
    } catch (failure) {
      // OAuth's invalid_grant (code 6) and a refused user are the same to the visitor.
      const refused = failure instanceof AdminApiError && (failure.status === 400 || failure.status === 401);
      setError(refused ? t('admin.auth.failed') : errorText(failure, t('admin.common.failed')));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="admin-login" id="admin-main">
      <form className="admin-login__form" onSubmit={(event) => void submit(event)} noValidate>
        <h1>{t('admin.auth.title')}</h1>
        {error && <Notice>{error}</Notice>}
        <Field label={t('admin.auth.username')} name="username" autoComplete="username" required value={username} onChange={(e) => setUsername(e.target.value)} />
        <Field label={t('admin.auth.password')} name="password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        <button type="submit" className="button" disabled={busy || !username || !password}>
          {t('admin.auth.logIn')}
        </button>
        <LocaleSwitcher />
      </form>
    </main>
  );
}
