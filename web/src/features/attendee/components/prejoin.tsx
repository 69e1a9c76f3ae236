import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { Field } from '@/components/form';
import { useRuntimeConfig } from '@/config/runtime';
import { errorStatus } from '@/lib/api/shop';
import { getCookie, setCookie } from '@/lib/cookies';
import { useLocalePath } from '@/lib/i18n';
import { joinAsClient } from '../api/join-as-client';
import { saveAttendeeSession } from '../stores/attendee-session';

/** A guest's name is remembered for a day (spec section 9). */
const GUEST_NAME_COOKIE = 'guestName';
const GUEST_NAME_MAX_AGE = 86_400;

/** Name and privacy consent before a guest joins. */
export function Prejoin() {
  const { appointmentId = '' } = useParams();
  const config = useRuntimeConfig();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const [name, setName] = useState(() => getCookie(GUEST_NAME_COOKIE) ?? '');
  const [consent, setConsent] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    const attendeeName = name.trim();
    if (!attendeeName || !consent) return;
    setBusy(true);
    setFailed(false);
    try {
      saveAttendeeSession(appointmentId, await joinAsClient(config, appointmentId, attendeeName));
      setCookie(GUEST_NAME_COOKIE, attendeeName, GUEST_NAME_MAX_AGE);
      navigate(localePath(`/presentation/${appointmentId}`), { replace: true });
    } catch (error) {
      const status = errorStatus(error);
      if (status === 404) navigate(localePath(`/presentation/${appointmentId}/not-found`), { replace: true });
      else if (status === 403) navigate(localePath(`/presentation/${appointmentId}/denied`), { replace: true });
      else {
        setFailed(true);
        setBusy(false);
      }
    }
  }

  return (
    <section className="card">
      <h1>{t('presentation.prejoinTitle')}</h1>
      <form onSubmit={submit} noValidate>
        <Field
          label={t('presentation.name')}
          name="name"
          autoComplete="name"
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={submitted && !name.trim() ? t('errors.required') : null}
        />
        <Field
          label={t('presentation.consent')}
          name="consent"
          type="checkbox"
          checked={consent}
          onChange={(event) => setConsent(event.target.checked)}
          error={submitted && !consent ? t('presentation.consentRequired') : null}
        />
        {failed && (
          <p className="alert" role="alert">
            {t('errors.generic')}
          </p>
        )}
        <button type="submit" className="button button--primary" disabled={busy}>
          {t('presentation.join')}
        </button>
      </form>
    </section>
  );
}
