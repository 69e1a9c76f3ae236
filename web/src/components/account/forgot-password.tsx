import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { Field } from '@/components/form';
import { localeFromPath, localePrefix } from '@/lib/i18n';
import { modalStore } from '@/lib/ui/modal';
import { rules, validate } from '@/lib/validation';
import { sendRecoveryMail } from '@/lib/shop/profile';
import { messagesOf } from '@/lib/api/messages';
import './forgot-password.css';

/** The forgot-password form: the shop mails a link to the reset page under this locale. */
export function ForgotPassword({ initialEmail = '' }: { initialEmail?: string }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const [email, setEmail] = useState(initialEmail);
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);
  const [messages, setMessages] = useState<string[]>([]);
  const error = validate(email, [rules.required(), rules.email()]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (error) return;
    setBusy(true);
    setMessages([]);
    try {
      await sendRecoveryMail(email.trim(), `${window.location.origin}${localePrefix(localeFromPath(pathname))}`);
      setSent(true);
    } catch (failure) {
      setMessages(messagesOf(failure, t('errors.generic')));
    } finally {
      setBusy(false);
    }
  }

  if (sent) {
    return (
      <div className="forgot-password">
        <p role="status">{t('account.recoverySent')}</p>
        <button type="button" className="button button--primary" onClick={() => modalStore.getState().close()}>
          {t('shop.close')}
        </button>
      </div>
    );
  }
  return (
    <form className="forgot-password" onSubmit={(event) => void submit(event)} noValidate>
      <p className="muted">{t('account.forgotLead')}</p>
      <Field label={t('account.email')} name="recovery-email" type="email" autoComplete="email" value={email} onChange={(event) => setEmail(event.target.value)} error={submitted ? error : null} autoFocus />
      {messages.length > 0 && (
        <ul className="alert" role="alert">
          {messages.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      )}
      <button type="submit" className="button button--primary" disabled={busy}>
        {t('account.sendLink')}
      </button>
    </form>
  );
}

export function openForgotPassword(title: string, email: string): void {
  modalStore.getState().open(<ForgotPassword initialEmail={email} />, { title, size: 'small' });
}
