import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { Field } from '@/components/form';
import { useRuntimeConfig } from '@/config/runtime';
import { errorStatus } from '@/lib/api/shop';
import { useLocalePath } from '@/lib/i18n';
import { logIn } from '../api/log-in';
import { saveAdminSession } from '../stores/admin-session';

export function GuideLogin() {
  const { appointmentId = '' } = useParams();
  const config = useRuntimeConfig();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const localePath = useLocalePath();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<'guide.loginFailed' | 'errors.generic' | null>(null);

  const required = (value: string) => (submitted && !value.trim() ? t('errors.required') : null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (!username.trim() || !password) return;
    setBusy(true);
    setFailure(null);
    try {
      saveAdminSession(await logIn(config, username.trim(), password));
      const next = search.get('next') === 'report' ? `/guide/report/${appointmentId}` : `/guide/${appointmentId}`;
      void navigate(localePath(next), { replace: true });
    } catch (error) {
      const status = errorStatus(error);
      setFailure(status === 400 || status === 401 ? 'guide.loginFailed' : 'errors.generic');
      setBusy(false);
    }
  }

  return (
    <section className="card">
      <h1>{t('guide.loginTitle')}</h1>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Field
          label={t('guide.username')}
          name="username"
          autoComplete="username"
          value={username}
          onChange={(event) => setUsername(event.target.value)}
          error={required(username)}
        />
        <Field
          label={t('guide.password')}
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={required(password)}
        />
        {failure && (
          <p className="alert" role="alert">
            {t(failure)}
          </p>
        )}
        <button type="submit" className="button button--primary" disabled={busy}>
          {t('guide.logIn')}
        </button>
      </form>
    </section>
  );
}
