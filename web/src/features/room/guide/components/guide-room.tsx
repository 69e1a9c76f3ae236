import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useParams } from 'react-router';
import { LoadingOverlay } from '@/components/loading-overlay';
import { MessageScreen } from '@/components/message-screen';
import { useRuntimeConfig } from '@/config/runtime';
import { getSlides, type Slide } from '../../api/presentation';
import { errorStatus, hubSessionOf, type AdminSession } from '@/lib/api/shop';
import { useLocalePath } from '@/lib/i18n';
import type { HubSession } from '../../realtime/client';
import { joinAsGuide } from '../api/join-as-guide';
import { clearAdminSession, loadAdminSession } from '../stores/admin-session';
import { GuideStage } from './guide-stage';

interface Room {
  appointmentId: string;
  appointmentName: string;
  contextToken: string;
  /** The appointment's sales channel: attendees' carts are read through it. */
  salesChannelId: string;
  slides: Slide[];
  hub: HubSession;
}

/** The guide's view of an appointment; needs a guide login (guide-auth-guard). */
export function GuideRoom() {
  const { appointmentId = '' } = useParams();
  const localePath = useLocalePath();
  const [session] = useState(loadAdminSession);
  if (!session) return <Navigate to={localePath(`/guide/${appointmentId}/login`)} replace />;
  return <JoinedGuideRoom key={appointmentId} appointmentId={appointmentId} session={session} />;
}

function JoinedGuideRoom({ appointmentId, session }: { appointmentId: string; session: AdminSession }) {
  const config = useRuntimeConfig();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const [room, setRoom] = useState<Room | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let cancelled = false;
    async function join() {
      const joined = await joinAsGuide(config, session, appointmentId);
      if (cancelled) return;
      if (!joined) {
        void navigate(localePath(`/guide/${appointmentId}/not-found`), { replace: true });
        return;
      }
      const slides = await getSlides(config, joined.newContextToken);
      if (!cancelled) {
        setRoom({
          appointmentId: joined.id,
          appointmentName: joined.appointmentName,
          contextToken: joined.newContextToken,
          salesChannelId: joined.salesChannelId ?? '',
          slides,
          hub: hubSessionOf(joined, config),
        });
      }
    }
    join().catch((error: unknown) => {
      if (cancelled) return;
      if (errorStatus(error) === 401) {
        // The login expired and could not be refreshed: log in again.
        clearAdminSession();
        void navigate(localePath(`/guide/${appointmentId}/login`), { replace: true });
      } else {
        setFailed(true);
      }
    });
    return () => {
      cancelled = true;
    };
  }, [config, session, appointmentId, navigate, localePath]);

  if (failed) return <MessageScreen title={t('errors.title')}>{t('errors.generic')}</MessageScreen>;
  if (!room) return <LoadingOverlay />;
  return <GuideStage {...room} session={loadAdminSession() ?? session} />;
}
