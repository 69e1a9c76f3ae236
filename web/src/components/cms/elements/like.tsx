import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { wishlistStore } from '@/lib/shop/wishlist-store';
import { toast } from '@/lib/ui/toasts';
import type { CmsElementProps } from '../context';
import './like.css';

/** A heart that puts the slot's product on the wishlist (the shop's: server list when logged in, else local). */
export function CmsLike({ slot }: CmsElementProps) {
  const { t } = useTranslation();
  const product = (slot.data as { product?: { id: string; name?: string; translated?: { name?: string } } } | undefined)?.product;
  const liked = useStore(wishlistStore, (state) => (product ? state.ids.includes(product.id) : false));
  if (!product) return null;
  const name = product.translated?.name || product.name || '';
  return (
    <button type="button" className="like-button" aria-pressed={liked} aria-label={`${t('cms.like')}: ${name}`} onClick={() => void wishlistStore.getState().toggle(product.id).catch(() => toast({ content: t('errors.generic'), variant: 'danger' }))}>
      <span aria-hidden="true">{liked ? '♥' : '♡'}</span>
    </button>
  );
}
