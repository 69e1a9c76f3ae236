import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { wishlistStore } from '@/lib/shop/wishlist-store';
import { toast } from '@/lib/ui/toasts';
import './wishlist-toggle.css';

/** The heart that keeps a product on the wishlist. */
export function WishlistToggle({ productId, name, className = 'wishlist-toggle' }: { productId: string; name: string; className?: string }) {
  const { t } = useTranslation();
  const liked = useStore(wishlistStore, (state) => state.ids.includes(productId));
  return (
    <button
      type="button"
      className={className}
      aria-pressed={liked}
      aria-label={liked ? t('wishlist.remove', { name }) : t('wishlist.add', { name })}
      onClick={() => void wishlistStore.getState().toggle(productId).catch(() => toast({ content: t('errors.generic'), variant: 'danger' }))}
    >
      <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
        <path
          d="M12 20s-7-4.4-7-10a4 4 0 0 1 7-2.6A4 4 0 0 1 19 10c0 5.6-7 10-7 10Z"
          fill={liked ? 'currentColor' : 'none'}
          stroke="currentColor"
          strokeWidth="1.8"
          strokeLinejoin="round"
        />
      </svg>
    </button>
  );
}
