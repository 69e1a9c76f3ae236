import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useStore } from 'zustand';
import { useLocalePath } from '@/lib/i18n';
import { wishlistStore } from '@/lib/shop/wishlist-store';

/** The heart in the header: how many products are on the wishlist; leads to it. */
export function WishlistLink() {
  const { t } = useTranslation();
  const localePath = useLocalePath();
  const count = useStore(wishlistStore, (state) => state.ids.length);
  return (
    <Link className="header-icon" to={localePath('/wishlist')} aria-label={t('wishlist.open', { count })}>
      <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
        <path d="M12 20s-7-4.4-7-10a4 4 0 0 1 7-2.6A4 4 0 0 1 19 10c0 5.6-7 10-7 10Z" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinejoin="round" />
      </svg>
      {count > 0 && (
        <span className="header-icon__count" aria-hidden="true">
          {count}
        </span>
      )}
    </Link>
  );
}
