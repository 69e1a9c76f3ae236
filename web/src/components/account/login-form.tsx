import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Field } from '@/components/form';
import { useDocumentTitle } from '@/lib/head';
import { useLocalePath } from '@/lib/i18n';
import { errorStatus } from '@/lib/api/shop';
import { cartStore } from '@/lib/shop/cart';
import { customerStore } from '@/lib/shop/customer';
import { toast } from '@/lib/ui/toasts';
import { rules, validate } from '@/lib/validation';
import { openForgotPassword } from './forgot-password';
import './auth-card.css';
import './login-form.css';

/** Where to go after login: a local path from `?redirect=`, else the account. */
export function redirectTarget(raw: string | null, fallback: string): string {
  return raw && raw.startsWith('/') && !raw.startsWith('//') ? raw : fallback;
}

/** The customer login (email and password), with the forgot-password modal. */
export function LoginForm({
  embedded = false,
  titled = true,
  onLoggedIn,
}: {
  embedded?: boolean;
  /** Shows its own heading (a page that has its own title leaves it out). */
  titled?: boolean;
  onLoggedIn?: () => void;
} = {}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const [params] = useSearchParams();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  useDocumentTitle(embedded ? null : t('account.loginTitle'));

  const errors = { email: validate(email, [rules.required(), rules.email()]), password: validate(password, [rules.required()]) };

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (errors.email || errors.password) return;
    setBusy(true);
    setFailure(null);
    try {
      await customerStore.getState().login(email.trim(), password);
      cartStore.getState().refresh().catch(() => undefined);
      toast({ content: t('account.loggedIn'), variant: 'success' });
      if (onLoggedIn) onLoggedIn();
      else void navigate(redirectTarget(params.get('redirect'), localePath('/account')), { replace: true });
    } catch (error) {
      const status = errorStatus(error);
      setFailure(status === 401 || status === 400 || status === 403 ? t('account.loginFailed') : t('errors.generic'));
      setBusy(false);
    }
  }

  return (
    <section className={embedded ? 'login-form' : 'card auth-card'}>
      {!titled ? null : embedded ? <h2 className="section-title">{t('account.loginTitle')}</h2> : <h1>{t('account.loginTitle')}</h1>}
      <p className="muted">{t('account.loginLead')}</p>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Field label={t('account.email')} name="email" type="email" autoComplete="email" value={email} onChange={(event) => setEmail(event.target.value)} error={submitted ? errors.email : null} />
        <Field
          label={t('account.password')}
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={submitted ? errors.password : null}
        />
        {failure && (
          <p className="alert" role="alert">
            {failure}
          </p>
        )}
        <div className="login-form__actions">
          <button type="submit" className="button button--primary" disabled={busy}>
            {t('account.logIn')}
          </button>
          <button type="button" className="link-button" onClick={() => openForgotPassword(t('account.forgotTitle'), email)}>
            {t('account.forgotPassword')}
          </button>
        </div>
      </form>
      {!embedded && (
        <p className="auth-card__switch">
          {t('account.noAccount')} <Link to={localePath('/account/register')}>{t('account.toRegister')}</Link>
        </p>
      )}
    </section>
  );
}
