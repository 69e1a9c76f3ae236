import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Field } from '@/components/form';
import { errorStatus } from '@/lib/api/shop';
import { useDocumentTitle } from '@/lib/head';
import { useLocalePath } from '@/lib/i18n';
import { rules, validate } from '@/lib/validation';
import { resetPassword } from '@/lib/shop/profile';
import { messagesOf } from '@/lib/api/messages';
import { PASSWORD_MIN_LENGTH } from '@/components/account/register-form';
import '@/components/account/auth-card.css';

/** `/account/recover/password?hash=…`: a new password from the link in the recovery mail. */
export function ResetPassword() {
  const { t } = useTranslation();
  const localePath = useLocalePath();
  const [params] = useSearchParams();
  const hash = params.get('hash') ?? '';
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const [messages, setMessages] = useState<string[]>(hash ? [] : [t('account.hashUnknown')]);
  useDocumentTitle(t('account.resetTitle'));

  const errors = {
    password: validate(password, [rules.required(), rules.minLength(PASSWORD_MIN_LENGTH)]),
    confirmation: validate(confirmation, [rules.required()]) ?? (confirmation !== password ? t('account.passwordMismatch') : null),
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (errors.password || errors.confirmation || !hash) return;
    setBusy(true);
    setMessages([]);
    try {
      await resetPassword(hash, password, confirmation);
      setDone(true);
    } catch (error) {
      const status = errorStatus(error);
      setMessages(status === 410 ? [t('account.hashExpired')] : status === 404 ? [t('account.hashUnknown')] : messagesOf(error, t('errors.generic')));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card auth-card">
      <h1>{t('account.resetTitle')}</h1>
      {done ? (
        <>
          <p role="status">{t('account.passwordReset')}</p>
          <Link className="button button--primary" to={localePath('/account/login')}>
            {t('account.toLogin')}
          </Link>
        </>
      ) : (
        <form onSubmit={(event) => void submit(event)} noValidate>
          <p className="muted">{t('account.resetLead')}</p>
          <Field label={t('account.newPassword')} name="newPassword" type="password" autoComplete="new-password" value={password} onChange={(event) => setPassword(event.target.value)} error={submitted ? errors.password : null} />
          <Field
            label={t('account.newPasswordConfirmation')}
            name="newPasswordConfirm"
            type="password"
            autoComplete="new-password"
            value={confirmation}
            onChange={(event) => setConfirmation(event.target.value)}
            error={submitted ? errors.confirmation : null}
          />
          {messages.length > 0 && (
            <ul className="alert" role="alert">
              {messages.map((message) => (
                <li key={message}>{message}</li>
              ))}
            </ul>
          )}
          <button type="submit" className="button button--primary" disabled={busy || !hash}>
            {t('account.savePassword')}
          </button>
        </form>
      )}
    </section>
  );
}
