import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'react-router';
import { MessageScreen } from '@/components/message-screen';
import type { DeniedState } from '../api/join-problem';
import { CustomerAccessLinks } from './customer-access';

/** Access denied, with the reason the join was refused (restricted, locked, ended, not accessible). */
export function Denied() {
  const { t } = useTranslation();
  const { appointmentId = '' } = useParams();
  const reason = (useLocation().state as DeniedState | null)?.reason;
  switch (reason) {
    case 'restricted':
      return (
        <MessageScreen title={t('presentation.deniedTitle')}>
          {t('room.restricted')}
          <br />
          <CustomerAccessLinks appointmentId={appointmentId} />
        </MessageScreen>
      );
    case 'locked':
      return <MessageScreen title={t('room.lockedTitle')}>{t('room.locked')}</MessageScreen>;
    case 'ended':
      return <MessageScreen title={t('room.endedTitle')}>{t('room.ended')}</MessageScreen>;
    case 'notAccessible':
      return <MessageScreen title={t('presentation.deniedTitle')}>{t('room.notAccessible')}</MessageScreen>;
    default:
      return <MessageScreen title={t('presentation.deniedTitle')}>{t('presentation.denied')}</MessageScreen>;
  }
}
