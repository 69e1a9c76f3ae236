import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Spinner } from '@/components/spinner';
import { confirmNewsletter } from '@/lib/shop/profile';
import { useDocumentTitle } from '@/lib/head';
import { useLocalePath } from '@/lib/i18n';
import '@/components/account/auth-card.css';
import './newsletter-confirm.css';

/** `/newsletter-subscribe?em=…&hash=…`: confirms the subscription from the mail's link. */
export function NewsletterConfirm() {
  const { t } = useTranslation();
  const localePath = useLocalePath();
  const [params] = useSearchParams();
  const em = params.get('em') ?? '';
  const hash = params.get('hash') ?? '';
  const [state, setState] = useState<'busy' | 'done' | 'failed'>(em && hash ? 'busy' : 'failed');
  useDocumentTitle(t('newsletter.confirmTitle'));
  useEffect(() => {
    if (!em || !hash) return;
    let cancelled = false;
    confirmNewsletter(em, hash)
      .then(() => !cancelled && setState('done'))
      .catch(() => !cancelled && setState('failed'));
    return () => {
      cancelled = true;
    };
  }, [em, hash]);

  return (
    <div className="container">
      <section className="card auth-card newsletter-confirm">
        <h1>{t('newsletter.confirmTitle')}</h1>
        {state === 'busy' ? (
          <Spinner label={t('newsletter.confirming')} />
        ) : (
          <p role={state === 'failed' ? 'alert' : 'status'} className={state === 'failed' ? 'alert' : undefined}>
            {state === 'done' ? t('newsletter.confirmed') : t('newsletter.confirmFailed')}
          </p>
        )}
        <Link className="button button--primary" to={localePath('/') || '/'}>
          {t('newsletter.toShop')}
        </Link>
      </section>
    </div>
  );
}
