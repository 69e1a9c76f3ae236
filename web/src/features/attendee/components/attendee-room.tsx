import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { Navigate, useParams } from 'react-router';
import { ConnectionStatus } from '@/components/connection-status';
import { SlideView } from '@/components/slide-view';
import { useRuntimeConfig } from '@/config/runtime';
import { getSlides, slideAt, slideNumber, type Slide } from '@/lib/api/presentation';
import { hubSessionOf, type JoinAppointmentResponse } from '@/lib/api/shop';
import { useLocalePath } from '@/lib/i18n';
import { useRealtimeClient } from '@/lib/realtime/use-realtime-client';
import { loadAttendeeSession } from '../stores/attendee-session';

/** The attendee's view of a presentation; without a join it goes to the pre-join screen. */
export function AttendeeRoom() {
  const { appointmentId = '' } = useParams();
  const localePath = useLocalePath();
  const [session] = useState(() => loadAttendeeSession(appointmentId));
  if (!session) return <Navigate to={localePath(`/presentation/${appointmentId}/prejoin`)} replace />;
  return <AttendeeStage key={appointmentId} session={session} />;
}

function AttendeeStage({ session }: { session: JoinAppointmentResponse }) {
  const config = useRuntimeConfig();
  const { t } = useTranslation();
  const client = useRealtimeClient(hubSessionOf(session, config));
  const connection = useStore(client.store, (state) => state.connection);
  const alias = useStore(client.store, (state) => state.snapshot?.stateForAll.currentSlideAlias ?? 0);
  const [slides, setSlides] = useState<Slide[]>([]);

  useEffect(() => {
    let cancelled = false;
    // Without the structure the slide number still shows; only its name is missing.
    getSlides(config, session.newContextToken)
      .then((loaded) => !cancelled && setSlides(loaded))
      .catch((error: unknown) => console.warn('could not load the presentation structure', error));
    return () => {
      cancelled = true;
    };
  }, [config, session]);

  const number = slideNumber(alias);
  return (
    <section className="stage">
      <header className="stage__header">
        <h1>{session.appointmentName}</h1>
        <ConnectionStatus state={connection} />
      </header>
      <SlideView position={t('slides.position', { number })} slide={slideAt(slides, number)} />
    </section>
  );
}
