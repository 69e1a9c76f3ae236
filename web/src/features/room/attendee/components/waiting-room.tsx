import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useParams } from 'react-router';
import { ConnectionStatus } from '@/components/connection-status';
import type { JoinAppointmentResponse } from '@/lib/api/shop';
import { useLocalePath } from '@/lib/i18n';
import { loadAttendeeSession } from '../stores/attendee-session';
import { formatStart } from '../api/upcoming';
import { useListedAppointment } from './use-appointment-name';
import { useAttendeeRoom } from './use-attendee-room';
import './waiting-room.css';

/** The waiting room: connected, it goes to the room by itself once the guide starts. */
export function WaitingRoom() {
  const { appointmentId = '' } = useParams();
  const localePath = useLocalePath();
  const [session] = useState(() => loadAttendeeSession(appointmentId));
  if (!session) return <Navigate to={localePath(`/presentation/${appointmentId}/prejoin`)} replace />;
  return <Waiting key={appointmentId} appointmentId={appointmentId} session={session} />;
}

function Waiting({ appointmentId, session }: { appointmentId: string; session: JoinAppointmentResponse }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const { connection, screen } = useAttendeeRoom(appointmentId, session);
  // Its name in the page's language; when it is planned to start, in the attendee's own time zone.
  const listed = useListedAppointment(session.id);
  const appointmentName = listed?.name || session.appointmentName;
  const start = listed && !listed.live ? formatStart(listed, i18n.language) : null;

  useEffect(() => {
    if (screen === 'live' || screen === 'ended') void navigate(localePath(`/presentation/${appointmentId}`), { replace: true });
  }, [screen, navigate, localePath, appointmentId]);

  return (
    <section className="card message waiting" aria-busy={screen !== 'waiting'}>
      <h1>{t('room.waitingTitle')}</h1>
      <p className="waiting__name">{appointmentName}</p>
      {start && <p data-testid="waiting-start">{t('presentations.startsAt', { start })}</p>}
      <p>{t('room.waitingText')}</p>
      <span className="waiting__pulse" aria-hidden="true" />
      <ConnectionStatus state={connection} />
    </section>
  );
}
