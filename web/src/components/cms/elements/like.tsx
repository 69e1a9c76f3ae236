import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { localWishlist } from '@/lib/shop/wishlist';
import type { CmsElementProps } from '../context';
import './like.css';

/** A heart that puts the slot's product on the wishlist. */
export function CmsLike({ slot }: CmsElementProps) {
  const { t } = useTranslation();
  const product = (slot.data as { product?: { id: string; name?: string; translated?: { name?: string } } } | undefined)?.product;
  const liked = useStore(localWishlist, (state) => (product ? state.ids.includes(product.id) : false));
  if (!product) return null;
  const name = product.translated?.name || product.name || '';
  return (
    <button type="button" className="like-button" aria-pressed={liked} aria-label={`${t('cms.like')}: ${name}`} onClick={() => localWishlist.getState().toggle(product.id)}>
      <span aria-hidden="true">{liked ? '♥' : '♡'}</span>
    </button>
  );
}
