import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { SelectField } from '@/components/form';
import { formatDateTime } from '@/lib/format';
import { useAdminApi } from '../api/context';
import { errorText, fieldErrors } from '../api/errors';
import { Notice } from '../components/admin-page';
import { MAX_EMAILS, parseEmails, type AppointmentEntity } from './appointment-form';

interface Invitation {
  id: string;
  email: string;
  sentAt: string;
  answer: 'accepted' | 'maybe' | 'declined' | null;
  attendeeName: string | null;
}

interface Attendee {
  id: string;
  attendeeName?: string;
  attendeeEmail?: string;
  type: 'GUIDE' | 'CLIENT';
  invitationStatus?: string;
  joinedAt: string;
}

/**
 * Invite by e-mail (`POST /api/_action/dsr/appointment/{id}/invite`: one mail per address
 * with a calendar file and answer links), the invitations with their answers, and who joined.
 */
export function AppointmentInvitations({ appointment, languages }: { appointment: AppointmentEntity; languages: { en?: string; de?: string } }) {
  const { t, i18n } = useTranslation();
  const api = useAdminApi();
  const emailsId = useId();
  const [text, setText] = useState('');
  const [language, setLanguage] = useState<'en' | 'de'>(i18n.language.startsWith('de') ? 'de' : 'en');
  const [invitations, setInvitations] = useState<Invitation[]>([]);
  const [attendees, setAttendees] = useState<Attendee[]>([]);
  const [message, setMessage] = useState<{ kind: 'error' | 'success'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(() => {
    api
      .request<{ data: Invitation[] }>('GET', `/_action/dsr/appointment/${appointment.id}/invitations`)
      .then((found) => setInvitations(found.data))
      .catch(() => setInvitations([]));
    api
      .request<{ data: Attendee[] }>('POST', '/search/dsr-appointment-attendee', {
        limit: 200,
        filter: [{ type: 'equals', field: 'appointmentId', value: appointment.id }],
      })
      .then((found) => setAttendees(found.data.filter((a) => a.type === 'CLIENT')))
      .catch(() => setAttendees([]));
  }, [api, appointment.id]);
  useEffect(load, [load]);

  async function invite(event: FormEvent) {
    event.preventDefault();
    const emails = parseEmails(text);
    if (!emails.length) return setMessage({ kind: 'error', text: t('admin.appointments.invite.none') });
    if (emails.length > MAX_EMAILS) return setMessage({ kind: 'error', text: t('admin.appointments.invite.tooMany', { max: MAX_EMAILS }) });
    if (!appointment.accessibleFrom) return setMessage({ kind: 'error', text: t('admin.appointments.invite.needsStart') });
    setBusy(true);
    setMessage(null);
    try {
      const sent = await api.request<{ total: number }>('POST', `/_action/dsr/appointment/${appointment.id}/invite`, {
        emails,
        ...(languages[language] ? { languageId: languages[language] } : {}),
      });
      setText('');
      setMessage({ kind: 'success', text: t('admin.appointments.invite.sent', { count: sent.total }) });
      load();
    } catch (failure) {
      // Bad addresses come back at `/emails/{index}`: name them.
      const fields = fieldErrors(failure);
      const named = Object.entries(fields)
        .map(([field, why]) => {
          const index = /^emails\/(\d+)$/.exec(field)?.[1];
          return index === undefined ? why : `${emails[Number(index)]}: ${why}`;
        })
        .join(' ');
      setMessage({ kind: 'error', text: named || errorText(failure, t('admin.common.failed')) });
    } finally {
      setBusy(false);
    }
  }

  const format = (iso: string) => formatDateTime(iso, { locale: i18n.language });

  return (
    <>
      <section aria-labelledby={`${emailsId}-title`} className="admin-form">
        <h2 id={`${emailsId}-title`}>{t('admin.appointments.invite.title')}</h2>
        {message && <Notice kind={message.kind}>{message.text}</Notice>}
        <form onSubmit={(event) => void invite(event)} noValidate className="admin-form">
          <div className="field">
            <label htmlFor={emailsId}>{t('admin.appointments.invite.emails')}</label>
            <textarea id={emailsId} rows={3} value={text} onChange={(event) => setText(event.target.value)} />
          </div>
          <SelectField
            label={t('admin.appointments.invite.language')}
            value={language}
            options={[
              { value: 'en', label: t('admin.common.english') },
              { value: 'de', label: t('admin.common.german') },
            ]}
            onChange={(event) => setLanguage(event.target.value as 'en' | 'de')}
          />
          <div>
            <button type="submit" className="button button--primary" disabled={busy}>
              {t('admin.appointments.invite.send')}
            </button>
          </div>
        </form>
      </section>
      <section aria-labelledby={`${emailsId}-answers`}>
        <h2 id={`${emailsId}-answers`}>{t('admin.appointments.answers.title')}</h2>
        {invitations.length === 0 ? (
          <p className="muted">{t('admin.appointments.answers.empty')}</p>
        ) : (
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">{t('admin.appointments.answers.email')}</th>
                <th scope="col">{t('admin.appointments.answers.sentAt')}</th>
                <th scope="col">{t('admin.appointments.answers.answer')}</th>
                <th scope="col">{t('admin.appointments.answers.attendee')}</th>
              </tr>
            </thead>
            <tbody>
              {invitations.map((invitation) => (
                <tr key={invitation.id}>
                  <td>{invitation.email}</td>
                  <td>{format(invitation.sentAt)}</td>
                  <td>{t(`admin.appointments.answers.${invitation.answer ?? 'pending'}`)}</td>
                  <td>{invitation.attendeeName ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section aria-labelledby={`${emailsId}-attendees`}>
        <h2 id={`${emailsId}-attendees`}>{t('admin.appointments.attendees.title')}</h2>
        {attendees.length === 0 ? (
          <p className="muted">{t('admin.appointments.attendees.empty')}</p>
        ) : (
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">{t('admin.appointments.attendees.name')}</th>
                <th scope="col">{t('admin.appointments.answers.email')}</th>
                <th scope="col">{t('admin.appointments.answers.answer')}</th>
                <th scope="col">{t('admin.appointments.attendees.joined')}</th>
              </tr>
            </thead>
            <tbody>
              {attendees.map((attendee) => (
                <tr key={attendee.id}>
                  <td>{attendee.attendeeName ?? '—'}</td>
                  <td>{attendee.attendeeEmail ?? '—'}</td>
                  <td>{t(`admin.appointments.answers.${(attendee.invitationStatus as Invitation['answer']) ?? 'pending'}`)}</td>
                  <td>{format(attendee.joinedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}
