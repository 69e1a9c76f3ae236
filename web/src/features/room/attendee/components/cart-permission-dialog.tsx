import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import type { AttendeeRoomState } from '../stores/attendee-room';
import type { StoreApi } from 'zustand/vanilla';
import '../../components/confirm.css';
import './cart-permission-dialog.css';

/** The guide's request for cart access, with the attendee's answer. */
export function CartPermissionDialog({ room }: { room: StoreApi<AttendeeRoomState> }) {
  const { t } = useTranslation();
  const titleId = useId();
  const answer = useStore(room, (state) => state.answer);
  return (
    <div className="room-dialog" role="alertdialog" aria-labelledby={titleId} aria-modal="false">
      <h2 id={titleId}>{t('room.cartRequestTitle')}</h2>
      <p>{t('room.cartRequest')}</p>
      {answer === 'failed' && (
        <p className="alert" role="alert">
          {t('cockpit.actionFailed')}
        </p>
      )}
      <div className="confirm__actions">
        <button type="button" className="button" disabled={answer === 'sending'} onClick={() => void room.getState().answerCartRequest(false)}>
          {t('room.refuse')}
        </button>
        <button
          type="button"
          className="button button--primary"
          disabled={answer === 'sending'}
          onClick={() => void room.getState().answerCartRequest(true)}
        >
          {t('room.grant')}
        </button>
      </div>
    </div>
  );
}
