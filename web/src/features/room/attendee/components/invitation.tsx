import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { useStore } from 'zustand';
import { useRuntimeConfig } from '@/config/runtime';
import { useLocalePath } from '@/lib/i18n';
import { customerStore } from '@/lib/shop/customer';
import { ensureCustomerKnown } from '@/lib/shop/known-customer';
import { joinAsClient } from '../api/join-as-client';
import { joinProblemOf, joinProblemPath, type DeniedState } from '../api/join-problem';
import { INVITATION_RESPONSES, respondInvitation, type InvitationResponse } from '../api/respond-invitation';
import { loadAttendeeSession, rememberGuestName, rememberedGuestName, saveAttendeeSession } from '../stores/attendee-session';
import { JoinNameFields } from './join-name-fields';
import { customerName } from './prejoin';
import { LoadingOverlay } from '@/components/loading-overlay';
import { usePrejoinCheck } from './use-prejoin-check';
import './invitation.css';

const answerKey = (appointmentId: string) => `salesroom.invitation.${appointmentId}`;

/**
 * The invitation: what to expect, the answer (accepted, maybe, declined; the guide sees
 * it) and the way into the presentation. Answering needs an attendee: someone who has not
 * joined yet gives their name and consent first, as on the pre-join screen.
 */
export function Invitation() {
  const { appointmentId = '' } = useParams();
  const [params] = useSearchParams();
  const config = useRuntimeConfig();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const [joined, setJoined] = useState(() => loadAttendeeSession(appointmentId));
  const loggedInName = useStore(customerStore, (state) => customerName(state.customer));
  const [typed, setName] = useState<string | null>(null);
  const name = typed ?? loggedInName ?? rememberedGuestName() ?? '';
  const [consent, setConsent] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const [answer, setAnswer] = useState(() => sessionStorage.getItem(answerKey(appointmentId)) as InvitationResponse | null);
  // The answer link of the invitation mail (`?answer=accepted`) marks its choice until one is given.
  const linked = INVITATION_RESPONSES.find((choice) => choice === params.get('answer'));
  useEffect(ensureCustomerKnown, []);
  const checked = usePrejoinCheck(appointmentId);

  async function respond(choice: InvitationResponse) {
    setSubmitted(true);
    const attendeeName = name.trim();
    if (!joined && (!attendeeName || !consent)) return;
    setBusy(true);
    setFailed(false);
    try {
      let session = joined;
      if (!session) {
        session = await joinAsClient(config, appointmentId, attendeeName);
        saveAttendeeSession(appointmentId, session);
        rememberGuestName(attendeeName);
        setJoined(session);
      }
      const stored = await respondInvitation(config, session.newContextToken, session.id, choice, params.get('token') ?? '');
      sessionStorage.setItem(answerKey(appointmentId), stored);
      setAnswer(stored);
    } catch (error) {
      const problem = joinProblemOf(error);
      if (problem && !joined) {
        const state: DeniedState = { reason: problem };
        void navigate(localePath(`/presentation/${appointmentId}${joinProblemPath(problem)}`), { replace: true, state });
        return;
      }
      setFailed(true);
    } finally {
      setBusy(false);
    }
  }

  // Unknown, ended, closed or customers-only: said before a name and consent are asked.
  if (!checked) return <LoadingOverlay />;

  return (
    <section className="card message">
      <h1>{t('room.invitationTitle')}</h1>
      <p>{t('room.invitationText')}</p>
      <form onSubmit={(event) => event.preventDefault()} noValidate>
        {!joined && (
          <>
            <p className="muted">{t('room.invitationNameHint')}</p>
            <JoinNameFields name={name} onName={setName} consent={consent} onConsent={setConsent} submitted={submitted} />
          </>
        )}
        <fieldset className="form-section">
          <legend>{t('room.invitationQuestion')}</legend>
          <div className="invitation__answers">
            {INVITATION_RESPONSES.map((choice) => (
              <button
                key={choice}
                type="button"
                className={`button${(answer ?? linked) === choice ? ' button--primary' : ''}`}
                aria-pressed={answer === choice}
                disabled={busy}
                onClick={() => void respond(choice)}
              >
                {t(`room.invitationAnswers.${choice}`)}
              </button>
            ))}
          </div>
        </fieldset>
      </form>
      <p role="status">{answer ? t(`room.invitationAnswered.${answer}`) : ''}</p>
      {failed && (
        <p className="alert" role="alert">
          {t('room.invitationAnswerFailed')}
        </p>
      )}
      {answer !== 'declined' && (
        <Link className="button button--primary" to={localePath(`/presentation/${appointmentId}${joined ? '' : '/prejoin'}`)}>
          {t('room.acceptInvitation')}
        </Link>
      )}
    </section>
  );
}
