import { useTranslation } from 'react-i18next';
import { openConfirm } from '../../components/confirm';

/** Removes an attendee from the presentation, after the guide confirmed it. */
export function RemoveAttendeeButton({ name, onRemove }: { name: string; onRemove: () => Promise<unknown> }) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className="button button--small participant__remove"
      aria-label={t('cockpit.removeAttendee', { name })}
      onClick={() =>
        openConfirm({
          title: t('cockpit.removeAttendeeTitle', { name }),
          text: t('cockpit.removeAttendeeText', { name }),
          confirmLabel: t('cockpit.removeAttendeeConfirm'),
          cancelLabel: t('cockpit.cancel'),
          failedText: t('cockpit.actionFailed'),
          danger: true,
          onConfirm: onRemove,
        })
      }
    >
      {t('room.remove')}
    </button>
  );
}
