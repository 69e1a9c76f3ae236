import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { Field } from '@/components/form';
import { AllowDevices } from '@/components/video/allow-devices';
import { useRuntimeConfig } from '@/config/runtime';
import { useStore } from 'zustand';
import { useLocalePath } from '@/lib/i18n';
import { customerStore, isLoggedIn, type Customer } from '@/lib/shop/customer';
import { ensureCustomerKnown } from '@/lib/shop/known-customer';
import { joinAsClient } from '../api/join-as-client';
import { joinProblemOf, joinProblemPath, type DeniedState } from '../api/join-problem';
import { CustomerAccessLinks } from './customer-access';
import { JoinNameFields } from './join-name-fields';
import { rememberCartGrant, rememberGuestName, rememberedGuestName, saveAttendeeSession } from '../stores/attendee-session';
import { LoadingOverlay } from '@/components/loading-overlay';
import { usePrejoinCheck } from './use-prejoin-check';
import './prejoin.css';

/** The name a logged-in customer joins under: first and last name, as the shop has them. */
export function customerName(customer: Pick<Customer, 'id' | 'active' | 'guest' | 'firstName' | 'lastName'> | null): string | null {
  if (!isLoggedIn(customer)) return null;
  const name = [customer?.firstName, customer?.lastName].map((part) => part?.trim()).filter(Boolean).join(' ');
  return name || null;
}

/**
 * Name, privacy consent, the cart-rights choice and a device preview before anyone
 * joins. A logged-in customer finds their name filled in; everyone else finds the way
 * to a customer login (customers-only appointments refuse guests).
 */
export function Prejoin() {
  const { appointmentId = '' } = useParams();
  const config = useRuntimeConfig();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const loggedInName = useStore(customerStore, (state) => customerName(state.customer));
  const known = useStore(customerStore, (state) => state.status === 'known');
  // What the attendee typed; until they type, the customer's name (or a guest's remembered one).
  const [typed, setName] = useState<string | null>(null);
  const name = typed ?? loggedInName ?? rememberedGuestName() ?? '';
  useEffect(ensureCustomerKnown, []);
  const checked = usePrejoinCheck(appointmentId);
  const [consent, setConsent] = useState(false);
  const [grantCart, setGrantCart] = useState(false);
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
      if (grantCart) rememberCartGrant(appointmentId);
      rememberGuestName(attendeeName);
      void navigate(localePath(`/presentation/${appointmentId}`), { replace: true });
    } catch (error) {
      const problem = joinProblemOf(error);
      if (problem) {
        const state: DeniedState = { reason: problem };
        void navigate(localePath(`/presentation/${appointmentId}${joinProblemPath(problem)}`), { replace: true, state });
      }
      else {
        setFailed(true);
        setBusy(false);
      }
    }
  }

  // Unknown, ended, closed or customers-only: said before a name and consent are asked.
  if (!checked) return <LoadingOverlay />;

  return (
    <section className="card">
      <h1>{t('presentation.prejoinTitle')}</h1>
      {loggedInName ? (
        <p className="muted">{t('presentation.joiningAs', { name: loggedInName })}</p>
      ) : (
        known && (
          <p className="muted">
            <CustomerAccessLinks appointmentId={appointmentId} />
          </p>
        )
      )}
      <form onSubmit={(event) => void submit(event)} noValidate>
        <JoinNameFields name={name} onName={setName} consent={consent} onConsent={setConsent} submitted={submitted} />
        <Field
          label={t('room.grantCart')}
          name="grantCart"
          type="checkbox"
          checked={grantCart}
          onChange={(event) => setGrantCart(event.target.checked)}
        />
        <details className="prejoin__devices">
          <summary>{t('room.devicePreview')}</summary>
          <AllowDevices />
        </details>
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
