import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import type { RealtimeClient } from '@/lib/realtime/client';
import { modalStore } from '@/lib/ui/modal';
import { participantsOf, participantStatistics } from '../stores/cockpit';

function Statistics({ client }: { client: RealtimeClient }) {
  const { t } = useTranslation();
  // Select the stored object (stable between renders) and count outside the selector.
  const stats = participantStatistics(useStore(client.store, (state) => state.snapshot?.stateForGuides));
  const rows = [
    ['statTotal', stats.total],
    ['statOnline', stats.online],
    ['statOffline', stats.offline],
    ['statGranted', stats.granted],
    ['statRequested', stats.requested],
    ['statGuides', stats.guides],
  ] as const;
  return (
    <dl className="statistics">
      {rows.map(([key, value]) => (
        <div key={key} className="statistics__row">
          <dt>{t(`cockpit.${key}`)}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The participants: status, connection state and cart permission; ask for cart access; statistics. */
export function ParticipantsSidebar({ client, onRequestCart }: { client: RealtimeClient; onRequestCart: (attendeeId: string) => void }) {
  const { t } = useTranslation();
  const guides = useStore(client.store, (state) => state.snapshot?.stateForGuides);
  const participants = participantsOf(guides);
  return (
    <section className="participants" aria-label={t('cockpit.participants')}>
      <header className="participants__header">
        <h2>{t('cockpit.participantsCount', { count: participants.length })}</h2>
      </header>
      {participants.length === 0 ? (
        <p className="video-note">{t('cockpit.noParticipants')}</p>
      ) : (
        <ul className="participants__list">
          {participants.map((attendee) => {
            const name = attendee.attendeeName || t('cockpit.guest');
            return (
              <li key={attendee.attendeeId} className="participant" data-connection={attendee.connection} aria-label={name}>
                <span className="participant__name">
                  <span className="connection__dot" aria-hidden="true" /> {name}
                </span>
                <span className="participant__meta">
                  {t(`cockpit.statuses.${attendee.status}`)} · {t(`connection.${attendee.connection}`)}
                </span>
                <span className="participant__cart" data-permission={attendee.cartPermission}>
                  {t(`cockpit.cartPermissions.${attendee.cartPermission}`)}
                </span>
                {attendee.cartPermission !== 'granted' && (
                  <button
                    type="button"
                    className="button button--small"
                    disabled={attendee.connection === 'lost'}
                    onClick={() => onRequestCart(attendee.attendeeId)}
                  >
                    {t('cockpit.requestCart', { name })}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <footer className="participants__footer">
        <button
          type="button"
          className="button"
          onClick={() => modalStore.getState().open(<Statistics client={client} />, { title: t('cockpit.statisticsTitle'), size: 'small' })}
        >
          {t('cockpit.statistics')}
        </button>
      </footer>
    </section>
  );
}
