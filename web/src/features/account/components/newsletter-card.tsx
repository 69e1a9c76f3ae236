import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { Field } from '@/components/form';
import { Spinner } from '@/components/spinner';
import { localeFromPath, localePrefix } from '@/lib/i18n';
import type { Customer } from '@/lib/shop/customer';
import { toast } from '@/lib/ui/toasts';
import { isSubscribed, needsConfirmation, newsletterStatus, subscribeNewsletter, unsubscribeNewsletter } from '@/lib/shop/profile';
import './newsletter-card.css';

/** The newsletter in the account: subscribed unless optOut or undefined; notSet waits for the confirmation mail. */
export function NewsletterCard({ customer }: { customer: Customer }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const [status, setStatus] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [pending, setPending] = useState<boolean | null>(null);
  useEffect(() => {
    newsletterStatus()
      .then(setStatus)
      .catch(() => setStatus('undefined'));
  }, []);

  const toggle = async (subscribe: boolean) => {
    setBusy(true);
    setPending(subscribe);
    try {
      if (subscribe) {
        const next = await subscribeNewsletter(customer.email, `${window.location.origin}${localePrefix(localeFromPath(pathname))}`);
        setStatus(next);
        toast({ content: needsConfirmation(next) ? t('account.newsletterConfirm') : t('account.newsletterSubscribed'), variant: 'success' });
      } else {
        await unsubscribeNewsletter(customer.email);
        setStatus('optOut');
        toast({ content: t('account.newsletterUnsubscribed'), variant: 'info' });
      }
    } catch {
      toast({ content: t('errors.generic'), variant: 'danger' });
    } finally {
      setPending(null);
      setBusy(false);
    }
  };

  return (
    <section className="account-card newsletter-card" aria-labelledby="account-newsletter">
      <h2 id="account-newsletter">{t('account.newsletter')}</h2>
      <p className="muted">{t('account.newsletterLead')}</p>
      {status === null ? (
        <Spinner />
      ) : (
        <>
          <Field type="checkbox" label={t('account.newsletterCheckbox')} name="newsletter" checked={pending ?? isSubscribed(status)} disabled={busy} onChange={(event) => void toggle(event.target.checked)} />
          {needsConfirmation(status) && <p className="muted">{t('account.newsletterConfirm')}</p>}
        </>
      )}
    </section>
  );
}
