import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import { Spinner } from '@/components/spinner';
import { formatPrice } from '@/lib/format';
import type { AttendeeSummary } from '@/protocol/generated';
import { useProductSummaries } from '../../components/product-summaries';
import type { CartLine, InsightsState } from '../stores/insights';
import { AttendeeWishlist } from './attendee-wishlist';

const NO_PRODUCTS: string[] = [];

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
          <button type="button" className="link-button" disabled={busy || line.quantity <= 1} aria-label={t('cart.decrease', { name: line.label })} onClick={() => void change(line.quantity - 1)}>
            −
          </button>
          <button type="button" className="link-button" disabled={busy} aria-label={t('cart.increase', { name: line.label })} onClick={() => void change(line.quantity + 1)}>
            +
          </button>
          <button type="button" className="link-button link-button--danger" disabled={busy} aria-label={t('cart.remove', { name: line.label })} onClick={() => void change(0)}>
            {t('room.remove')}
          </button>
        </span>
      )}
      {failed && <span className="field__error">{t('room.cartChangeFailed')}</span>}
    </li>
  );
}

/** An attendee's likes and, with access, cart, shown under their entry. */
export function AttendeeDetails({
  attendee,
  insights,
  contextToken,
}: {
  attendee: AttendeeSummary;
  insights: StoreApi<InsightsState>;
  contextToken: string;
}) {
  const { t } = useTranslation();
  const likes = useStore(insights, (state) => state.likes[attendee.attendeeId] ?? NO_PRODUCTS);
  const cart = useStore(insights, (state) => state.carts[attendee.attendeeId]);
  const lastSeen = useStore(insights, (state) => state.lastSeen[attendee.attendeeId] ?? NO_PRODUCTS);
  const { summaries, status } = useProductSummaries(likes, contextToken);
  const granted = attendee.cartPermission === 'granted';
  const seen = useProductSummaries(granted ? lastSeen.slice(0, 10) : NO_PRODUCTS, contextToken).summaries;
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
      <AttendeeWishlist attendee={attendee} insights={insights} contextToken={contextToken} />
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
