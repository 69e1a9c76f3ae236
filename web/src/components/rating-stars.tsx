import { useTranslation } from 'react-i18next';
import { formatNumber } from '@/lib/format';
import './rating-stars.css';

/** Five stars filled to `rating` (0..5), with the value for screen readers. */
export function RatingStars({ rating, size = 'small' }: { rating: number; size?: 'small' | 'large' }) {
  const { t } = useTranslation();
  const clamped = Math.max(0, Math.min(5, rating));
  return (
    <span className={`stars stars--${size}`} role="img" aria-label={t('product.rating', { rating: formatNumber(clamped, undefined, 1) })}>
      <span className="stars__fill" style={{ width: `${(clamped / 5) * 100}%` }} aria-hidden="true">
        ★★★★★
      </span>
      <span className="stars__empty" aria-hidden="true">
        ★★★★★
      </span>
    </span>
  );
}
