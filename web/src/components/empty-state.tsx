import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLocalePath } from '@/lib/i18n';

/** An empty list's message with a way back into the shop (cart, wishlist, orders). */
export function EmptyShopping({ text }: { text: string }) {
  const { t } = useTranslation();
  const localePath = useLocalePath();
  return (
    <div className="empty-state">
      <p>{text}</p>
      <Link className="button button--primary" to={localePath('/') || '/'}>
        {t('cart.continueShopping')}
      </Link>
    </div>
  );
}
