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
import { cartTotals, likesPerProduct, statusCounts, type CartLine, type InsightsState } from '../stores/insights';
import './participants-sidebar.css';

const NO_LIKES: string[] = [];

function Statistics({ client, insights, contextToken }: { client: RealtimeClient; insights: StoreApi<InsightsState>; contextToken: string }) {
  const { t } = useTranslation();
  // Select the stored object (stable between renders) and count outside the selector.
  const guides = useStore(client.store, (state) => state.snapshot?.stateForGuides);
  const { likes, carts } = useStore(insights);
  const stats = participantStatistics(guides);
  const participants = participantsOf(guides);
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

/** One line of an attendee's cart; the guide may change its quantity or remove it on their behalf. */
function CartLineRow({ line, attendeeId, insights }: { line: CartLine; attendeeId: string; insights: StoreApi<InsightsState> }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  async function change(quantity: number) {
    setBusy(true);
    setFailed(false);
    try {
      await insights.getState().changeLine(attendeeId, line.id, quantity);
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  }
  return (
    <li aria-busy={busy}>
      <span className="participant__cart-line">
        <span>
          {line.quantity} × {line.label}
        </span>
        <span>{formatPrice(line.totalPrice)}</span>
      </span>
      {line.productId && (
        <span className="participant__cart-edit">
          <button type="button" className="link-button" disabled={busy || line.quantity <= 1} aria-label={t('cart.decrease', { name: line.label })} onClick={() => change(line.quantity - 1)}>
            −
          </button>
          <button type="button" className="link-button" disabled={busy} aria-label={t('cart.increase', { name: line.label })} onClick={() => change(line.quantity + 1)}>
            +
          </button>
          <button type="button" className="link-button link-button--danger" disabled={busy} aria-label={t('cart.remove', { name: line.label })} onClick={() => change(0)}>
            {t('room.remove')}
          </button>
        </span>
      )}
      {failed && <span className="field__error">{t('room.cartChangeFailed')}</span>}
    </li>
  );
}

/** An attendee's likes and, with access, cart, shown under their entry. */
function AttendeeDetails({
  attendee,
  insights,
  contextToken,
}: {
  attendee: AttendeeSummary;
  insights: StoreApi<InsightsState>;
  contextToken: string;
}) {
  const { t } = useTranslation();
  const likes = useStore(insights, (state) => state.likes[attendee.attendeeId] ?? NO_LIKES);
  const cart = useStore(insights, (state) => state.carts[attendee.attendeeId]);
  const lastSeen = useStore(insights, (state) => state.lastSeen[attendee.attendeeId] ?? NO_LIKES);
  const { summaries, status } = useProductSummaries(likes, contextToken);
  const granted = attendee.cartPermission === 'granted';
  const seen = useProductSummaries(granted ? lastSeen.slice(0, 10) : NO_LIKES, contextToken).summaries;
  return (
    <div className="participant__details">
      <section aria-label={t('cockpit.likesOf', { count: likes.length })}>
        <h3>{t('cockpit.likesOf', { count: likes.length })}</h3>
        {likes.length === 0 ? (
          <p className="video-note">{t('cockpit.noLikes')}</p>
        ) : status === 'loading' && summaries.length === 0 ? (
          <Spinner />
        ) : (
          <ul className="participant__likes">
            {summaries.map((product) => (
              <li key={product.id}>{product.name}</li>
            ))}
          </ul>
        )}
      </section>
      {granted && (
        <section aria-label={t('cockpit.lastSeenOf', { count: lastSeen.length })}>
          <h3>{t('cockpit.lastSeenOf', { count: lastSeen.length })}</h3>
          {lastSeen.length === 0 ? (
            <p className="video-note">{t('cockpit.noLastSeen')}</p>
          ) : (
            <ul className="participant__likes">
              {seen.map((product) => (
                <li key={product.id}>{product.name}</li>
              ))}
            </ul>
          )}
        </section>
      )}
      <section aria-label={t('cockpit.cartOf')} data-testid="attendee-cart">
        <h3>{t('cockpit.cartOf')}</h3>
        {!granted ? (
          <p className="video-note">{t('cockpit.cartNoAccess')}</p>
        ) : !cart || (cart.status === 'loading' && cart.lineItems === null) ? (
          <Spinner />
        ) : cart.status === 'failed' ? (
          <p className="field__error">{t('cockpit.cartFailed')}</p>
        ) : cart.lineItemCount === 0 && (cart.lineItems?.length ?? 0) === 0 ? (
          <p className="video-note">{t('cockpit.cartEmpty')}</p>
        ) : (
          <>
            <p className="participant__cart-summary" data-testid="attendee-cart-summary">
              {t('cockpit.cartSummary', { count: cart.lineItemCount, total: formatPrice(cart.totalPrice) })}
            </p>
            {cart.lineItems && (
              <ul className="participant__cart-lines">
                {cart.lineItems.map((line) => (
                  <CartLineRow key={line.id} line={line} attendeeId={attendee.attendeeId} insights={insights} />
                ))}
              </ul>
            )}
          </>
        )}
        {granted && (
          <button type="button" className="link-button" onClick={() => void insights.getState().loadCart(attendee.attendeeId)}>
            {t('cockpit.refreshCart')}
          </button>
        )}
      </section>
    </div>
  );
}

function Participant({
  attendee,
  insights,
  contextToken,
  onRequestCart,
}: {
  attendee: AttendeeSummary;
  insights: StoreApi<InsightsState>;
  contextToken: string;
  onRequestCart: (attendeeId: string) => void;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const detailsId = useId();
  const likeCount = useStore(insights, (state) => state.likes[attendee.attendeeId]?.length ?? 0);
  const cart = useStore(insights, (state) => state.carts[attendee.attendeeId]);
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
      <div className="participant__actions">
        <button
          type="button"
          className="button button--small"
          aria-expanded={open}
          aria-controls={detailsId}
          aria-label={t('cockpit.attendeeDetails', { name })}
          onClick={() => setOpen(!open)}
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
      </div>
      <div id={detailsId} hidden={!open}>
        {open && <AttendeeDetails attendee={attendee} insights={insights} contextToken={contextToken} />}
      </div>
    </li>
  );
}

/** The participants: status, connection state, likes and (with access) cart; ask for cart access; statistics. */
export function ParticipantsSidebar({
  client,
  insights,
  contextToken,
  onRequestCart,
}: {
  client: RealtimeClient;
  insights: StoreApi<InsightsState>;
  contextToken: string;
  onRequestCart: (attendeeId: string) => void;
}) {
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
          {participants.map((attendee) => (
            <Participant key={attendee.attendeeId} attendee={attendee} insights={insights} contextToken={contextToken} onRequestCart={onRequestCart} />
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
              .open(<Statistics client={client} insights={insights} contextToken={contextToken} />, { title: t('cockpit.statisticsTitle'), size: 'medium' })
          }
        >
          {t('cockpit.statistics')}
        </button>
      </footer>
    </section>
  );
}
