import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import { Spinner } from '@/components/spinner';
import type { AttendeeSummary } from '@/protocol/generated';
import { useProductSummaries } from '../../components/product-summaries';
import type { InsightsState } from '../stores/insights';

const NO_PRODUCTS: string[] = [];

/**
 * An attendee's wishlist in their details: read with their cart permission when the
 * details open; a guest's wishlist stays in their browser, which the guide is told.
 */
export function AttendeeWishlist({
  attendee,
  insights,
  contextToken,
}: {
  attendee: AttendeeSummary;
  insights: StoreApi<InsightsState>;
  contextToken: string;
}) {
  const { t } = useTranslation();
  const granted = attendee.cartPermission === 'granted';
  const wishlist = useStore(insights, (state) => state.wishlists[attendee.attendeeId]);
  const ids = wishlist?.productIds ?? NO_PRODUCTS;
  const { summaries } = useProductSummaries(ids, contextToken);
  useEffect(() => {
    if (granted) void insights.getState().loadWishlist(attendee.attendeeId);
  }, [granted, insights, attendee.attendeeId]);

  const title = wishlist?.productIds ? t('cockpit.wishlistOf', { count: ids.length }) : t('cockpit.wishlist');
  return (
    <section aria-label={title} data-testid="attendee-wishlist">
      <h3>{title}</h3>
      {!granted ? (
        <p className="video-note">{t('cockpit.wishlistNoAccess')}</p>
      ) : !wishlist || (wishlist.status === 'loading' && wishlist.productIds === null) ? (
        <Spinner />
      ) : wishlist.status === 'failed' ? (
        <p className="field__error">{t('cockpit.wishlistFailed')}</p>
      ) : wishlist.productIds === null ? (
        <p className="video-note">{t('cockpit.wishlistInBrowser')}</p>
      ) : ids.length === 0 ? (
        <p className="video-note">{t('cockpit.wishlistEmpty')}</p>
      ) : (
        <ul className="participant__likes">
          {summaries.map((product) => (
            <li key={product.id}>{product.name}</li>
          ))}
        </ul>
      )}
    </section>
  );
}
