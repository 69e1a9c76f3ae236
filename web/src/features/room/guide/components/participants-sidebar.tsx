import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import { useProductSummaries } from '../../components/product-summaries';
import { Spinner } from '@/components/spinner';
import { formatPrice } from '@/lib/format';
import type { RealtimeClient } from '../../realtime/client';
import { modalStore } from '@/lib/ui/modal';
import type { AttendeeSummary } from '@/protocol/generated';
import { participantsOf, participantStatistics } from '../stores/cockpit';
import { cartTotals, likesPerProduct, statusCounts, type InsightsState } from '../stores/insights';
import { AttendeeDetails } from './attendee-details';
import { RemoveAttendeeButton } from './remove-attendee-button';
import './participants-sidebar.css';

interface RemovedIds {
  ids: string[];
}

function Statistics({
  client,
  insights,
  removed,
  contextToken,
}: {
  client: RealtimeClient;
  insights: StoreApi<InsightsState>;
  removed: StoreApi<RemovedIds>;
  contextToken: string;
}) {
  const { t } = useTranslation();
  // Select the stored object (stable between renders) and count outside the selector.
  const guides = useStore(client.store, (state) => state.snapshot?.stateForGuides);
  const removedIds = useStore(removed, (state) => state.ids);
  const { likes, carts } = useStore(insights);
  const stats = participantStatistics(guides, removedIds);
  const participants = participantsOf(guides, removedIds);
  const byStatus = statusCounts(participants);
  const liked = likesPerProduct(likes).slice(0, 10);
  const totals = cartTotals(carts, participants);
  const { summaries } = useProductSummaries(
    liked.map((entry) => entry.productId),
    contextToken,
  );
  const rows = [
    ['statTotal', stats.total],
    ['statOnline', stats.online],
    ['statOffline', stats.offline],
    ['statGranted', stats.granted],
    ['statRequested', stats.requested],
    ['statGuides', stats.guides],
  ] as const;
  return (
    <div className="statistics-modal">
      <dl className="statistics">
        {rows.map(([key, value]) => (
          <div key={key} className="statistics__row">
            <dt>{t(`cockpit.${key}`)}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <section aria-label={t('cockpit.statByStatus')}>
        <h3>{t('cockpit.statByStatus')}</h3>
        <dl className="statistics">
          {byStatus.map(([status, count]) => (
            <div key={status} className="statistics__row">
              <dt>{t(`cockpit.statuses.${status}`)}</dt>
              <dd>{count}</dd>
            </div>
          ))}
        </dl>
      </section>
      <section aria-label={t('cockpit.statLikes')}>
        <h3>{t('cockpit.statLikes')}</h3>
        {liked.length === 0 ? (
          <p className="video-note">{t('cockpit.statNoLikes')}</p>
        ) : (
          <ol className="statistics statistics--ranked">
            {liked.map(({ productId, count }) => (
              <li key={productId} className="statistics__row">
                <span>{summaries.find((summary) => summary.id === productId)?.name ?? productId}</span>
                <span className="statistics__bar" style={{ ['--share' as string]: `${(count / Math.max(1, liked[0]?.count ?? 1)) * 100}%` }} aria-hidden="true" />
                <span>{count}</span>
              </li>
            ))}
          </ol>
        )}
      </section>
      <section aria-label={t('cockpit.statCarts')}>
        <h3>{t('cockpit.statCarts')}</h3>
        <dl className="statistics">
          <div className="statistics__row">
            <dt>{t('cockpit.statCartsVisible')}</dt>
            <dd>{totals.carts}</dd>
          </div>
          <div className="statistics__row">
            <dt>{t('cockpit.statCartItems')}</dt>
            <dd>{totals.items}</dd>
          </div>
          <div className="statistics__row">
            <dt>{t('cockpit.statCartsTotal')}</dt>
            <dd data-testid="carts-total">{formatPrice(totals.total)}</dd>
          </div>
        </dl>
      </section>
    </div>
  );
}

function Participant({
  attendee,
  insights,
  contextToken,
  onRequestCart,
  onRemove,
}: {
  attendee: AttendeeSummary;
  insights: StoreApi<InsightsState>;
  contextToken: string;
  onRequestCart: (attendeeId: string) => void;
  onRemove: (attendeeId: string) => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const detailsId = useId();
  const likeCount = useStore(insights, (state) => state.likes[attendee.attendeeId]?.length ?? 0);
  const cart = useStore(insights, (state) => state.carts[attendee.attendeeId]);
  const invitation = useStore(insights, (state) => state.invitations?.[attendee.attendeeId]?.answer);
  const name = attendee.attendeeName || t('cockpit.guest');
  const granted = attendee.cartPermission === 'granted';
  return (
    <li className="participant" data-connection={attendee.connection} aria-label={name}>
      <span className="participant__name">
        <span className="connection__dot" aria-hidden="true" /> {name}
      </span>
      <span className="participant__meta">
        {t(`cockpit.statuses.${attendee.status}`)} · {t(`connection.${attendee.connection}`)}
      </span>
      <span className="participant__cart" data-permission={attendee.cartPermission}>
        {t(`cockpit.cartPermissions.${attendee.cartPermission}`)}
        {granted && cart && cart.status !== 'failed' && (cart.lineItems !== null || cart.status === 'ready')
          ? ` · ${t('cockpit.cartSummary', { count: cart.lineItemCount, total: formatPrice(cart.totalPrice) })}`
          : ''}
      </span>
      <span className="participant__meta">{t('cockpit.likesOf', { count: likeCount })}</span>
      {invitation && (
        <span className="participant__meta" data-testid="invitation-answer" data-answer={invitation}>
          {t('cockpit.invitationAnswer', { answer: t(`cockpit.invitationAnswers.${invitation}`) })}
        </span>
      )}
      <div className="participant__actions">
        <button
          type="button"
          className="button button--small"
          aria-expanded={open}
          aria-controls={detailsId}
          aria-label={t('cockpit.attendeeDetails', { name })}
          onClick={() => {
            // Opening the details reads the newest invitation answer too (it comes from the shop, not the hub).
            if (!open) void insights.getState().loadInvitations();
            setOpen(!open);
          }}
        >
          {t('room.showDetails')}
        </button>
        {!granted && (
          <button
            type="button"
            className="button button--small"
            disabled={attendee.connection === 'lost' || attendee.cartPermission === 'requested'}
            aria-label={t('cockpit.requestCart', { name })}
            onClick={() => onRequestCart(attendee.attendeeId)}
          >
            {t('cockpit.requestCartShort')}
          </button>
        )}
        <RemoveAttendeeButton name={name} onRemove={() => onRemove(attendee.attendeeId)} />
      </div>
      <div id={detailsId} hidden={!open}>
        {open && <AttendeeDetails attendee={attendee} insights={insights} contextToken={contextToken} />}
      </div>
    </li>
  );
}

const ANSWERS = ['accepted', 'maybe', 'declined'] as const;

/** Every answer to the invitation (read from the shop when opened), also of attendees who are not in the room. */
function InvitationAnswers({ insights }: { insights: StoreApi<InsightsState> }) {
  const { t } = useTranslation();
  const invitations = useStore(insights, (state) => state.invitations);
  if (invitations === null) return <Spinner />;
  const entries = Object.values(invitations);
  if (entries.length === 0) return <p className="video-note">{t('cockpit.noInvitationAnswers')}</p>;
  return (
    <div className="statistics" data-testid="invitation-answers">
      {ANSWERS.map((answer) => {
        const names = entries.filter((entry) => entry.answer === answer).map((entry) => entry.name || t('cockpit.guest'));
        const title = t(`cockpit.invitationGroups.${answer}`, { count: names.length });
        return (
          <section key={answer} aria-label={title}>
            <h3>{title}</h3>
            {names.length > 0 && (
              <ul>
                {names.map((name, index) => (
                  <li key={`${name}-${index}`}>{name}</li>
                ))}
              </ul>
            )}
          </section>
        );
      })}
    </div>
  );
}

/** The participants: status, connection state, likes and (with access) cart; ask for cart access; statistics. */
export function ParticipantsSidebar({
  client,
  insights,
  removed,
  contextToken,
  onRequestCart,
  onRemove,
}: {
  client: RealtimeClient;
  insights: StoreApi<InsightsState>;
  /** The attendees removed during this session, left out of the list. */
  removed: StoreApi<RemovedIds>;
  contextToken: string;
  onRequestCart: (attendeeId: string) => void;
  /** Removes the attendee from the room (after the guide confirmed). */
  onRemove: (attendeeId: string) => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const guides = useStore(client.store, (state) => state.snapshot?.stateForGuides);
  const removedIds = useStore(removed, (state) => state.ids);
  const participants = participantsOf(guides, removedIds);
  return (
    <section className="participants" aria-label={t('cockpit.participants')}>
      <header className="participants__header">
        <h2>{t('cockpit.participantsCount', { count: participants.length })}</h2>
      </header>
      {participants.length === 0 ? (
        <p className="video-note">{t('cockpit.noParticipants')}</p>
      ) : (
        <ul className="participants__list">
          {participants.map((attendee) => (
            <Participant key={attendee.attendeeId} attendee={attendee} insights={insights} contextToken={contextToken} onRequestCart={onRequestCart} onRemove={onRemove} />
          ))}
        </ul>
      )}
      <footer className="participants__footer">
        <button
          type="button"
          className="button"
          onClick={() =>
            modalStore
              .getState()
              .open(<Statistics client={client} insights={insights} removed={removed} contextToken={contextToken} />, { title: t('cockpit.statisticsTitle'), size: 'medium' })
          }
        >
          {t('cockpit.statistics')}
        </button>
        <button
          type="button"
          className="button"
          onClick={() => {
            void insights.getState().loadInvitations();
            modalStore.getState().open(<InvitationAnswers insights={insights} />, { title: t('cockpit.invitationsTitle'), size: 'medium' });
          }}
        >
          {t('cockpit.invitations')}
        </button>
      </footer>
    </section>
  );
}
