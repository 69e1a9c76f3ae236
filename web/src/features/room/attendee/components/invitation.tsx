import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useLocalePath } from '@/lib/i18n';
import { loadAttendeeSession } from '../stores/attendee-session';

/** The invitation: what to expect and one button into the presentation. */
export function Invitation() {
  const { appointmentId = '' } = useParams();
  const { t } = useTranslation();
  const localePath = useLocalePath();
  const joined = loadAttendeeSession(appointmentId) !== null;
  return (
    <section className="card message">
      <h1>{t('room.invitationTitle')}</h1>
      <p>{t('room.invitationText')}</p>
      <Link
        className="button button--primary"
        to={localePath(`/presentation/${appointmentId}${joined ? '' : '/prejoin'}`)}
      >
        {t('room.acceptInvitation')}
      </Link>
    </section>
  );
}
