import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLocalePath } from '@/lib/i18n';
import '../../components/confirm.css';
import './waiting-room.css';
import './end-screen.css';

/** After the end: thanks, and the way to the cart and the wishlist. */
export function EndScreen({ appointmentName }: { appointmentName: string }) {
  const { t } = useTranslation();
  const localePath = useLocalePath();
  return (
    <section className="card message end-screen">
      <h1>{t('room.endTitle')}</h1>
      <p className="waiting__name">{appointmentName}</p>
      <p>{t('room.endText')}</p>
      <div className="confirm__actions">
        <Link className="button button--primary" to={localePath('/checkout/cart')}>
          {t('room.toCart')}
        </Link>
        <Link className="button" to={localePath('/wishlist')}>
          {t('room.toWishlist')}
        </Link>
      </div>
    </section>
  );
}
