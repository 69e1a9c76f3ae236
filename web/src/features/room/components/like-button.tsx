import { useTranslation } from 'react-i18next';
import './like-button.css';

/** The thumbs-up that puts a product on the attendee's like list (and takes it off again). */
export function LikeButton({
  name,
  liked,
  busy = false,
  onToggle,
  large = false,
}: {
  name: string;
  liked: boolean;
  busy?: boolean;
  onToggle: () => void;
  large?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className={`room-like${large ? ' room-like--large' : ''}`}
      aria-pressed={liked}
      aria-label={liked ? t('room.unlike', { name }) : t('room.like', { name })}
      disabled={busy}
      onClick={onToggle}
    >
      <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
        <path
          d="M7 10v10H4V10h3Zm2 10h8.2a2 2 0 0 0 2-1.6l1.2-6A2 2 0 0 0 18.4 10H14l.8-3.8a1.6 1.6 0 0 0-3-1L9 10v10Z"
          fill={liked ? 'currentColor' : 'none'}
          stroke="currentColor"
          strokeWidth="1.7"
          strokeLinejoin="round"
        />
      </svg>
      {large && <span>{liked ? t('room.liked') : t('room.likeShort')}</span>}
    </button>
  );
}
