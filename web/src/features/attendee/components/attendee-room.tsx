import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useParams } from 'react-router';
import { useStore } from 'zustand';
import { ConnectionStatus } from '@/components/connection-status';
import { LoadingOverlay } from '@/components/loading-overlay';
import { HighlightedProduct } from '@/components/room/highlighted-product';
import { RoomShell } from '@/components/room/room-shell';
import { Toolbar, ToolbarGroup } from '@/components/room/toolbar';
import { SlideView } from '@/components/slide-view';
import { openMediaSettings } from '@/components/video/media-settings';
import { VideoStage } from '@/components/video/video-stage';
import { useRuntimeConfig } from '@/config/runtime';
import { getSlides, slideAt, slideNumber, type Slide } from '@/lib/api/presentation';
import type { JoinAppointmentResponse } from '@/lib/api/shop';
import { useLocalePath } from '@/lib/i18n';
import { loadAttendeeSession } from '../stores/attendee-session';
import { CartPermissionDialog } from './cart-permission-dialog';
import { EndScreen } from './end-screen';
import { useAttendeeRoom } from './use-attendee-room';

/** The attendee's view of a presentation; without a join it goes to the pre-join screen. */
export function AttendeeRoom() {
  const { appointmentId = '' } = useParams();
  const localePath = useLocalePath();
  const [session] = useState(() => loadAttendeeSession(appointmentId));
  if (!session) return <Navigate to={localePath(`/presentation/${appointmentId}/prejoin`)} replace />;
  return <AttendeeStage key={appointmentId} appointmentId={appointmentId} session={session} />;
}

function AttendeeStage({ appointmentId, session }: { appointmentId: string; session: JoinAppointmentResponse }) {
  const config = useRuntimeConfig();
  const { t } = useTranslation();
  const localePath = useLocalePath();
  const { client, room, connection, screen } = useAttendeeRoom(appointmentId, session);
  const all = useStore(client.store, (state) => state.snapshot?.stateForAll);
  const video = useStore(client.store, (state) => state.video);
  const cartPermission = useStore(client.store, (state) => state.cartPermission);
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

  if (screen === 'waiting') return <Navigate to={localePath(`/presentation/${appointmentId}/waiting`)} replace />;
  if (screen === 'ended') return <EndScreen appointmentName={session.appointmentName} />;
  if (screen === 'loading' || !all) {
    return (
      <>
        <LoadingOverlay />
        <ConnectionStatus state={connection} />
      </>
    );
  }

  const number = slideNumber(all.currentSlideAlias);
  const viewMode = all.viewMode;
  const toolbar = (
    <Toolbar label={t('cockpit.toolbar')}>
      <ToolbarGroup name="media" label={t('cockpit.groups.media')}>
        <button type="button" className="button" onClick={() => openMediaSettings(t('video.mediaSettings'))}>
          {t('video.mediaSettings')}
        </button>
      </ToolbarGroup>
      <ToolbarGroup name="client" label={t('cockpit.groups.client')}>
        <Link className="button" to={localePath('/checkout/cart')} target="_blank">
          {t('room.toCart')}
        </Link>
        <Link className="button" to={localePath('/wishlist')} target="_blank">
          {t('room.toWishlist')}
        </Link>
      </ToolbarGroup>
      <ToolbarGroup name="leave" label={t('cockpit.groups.leave')}>
        <Link className="button button--danger" to={localePath('/') || '/'}>
          {t('room.leave')}
        </Link>
      </ToolbarGroup>
    </Toolbar>
  );

  return (
    <RoomShell
      header={
        <header className="stage__header">
          <h1>{session.appointmentName}</h1>
          <p className="room__mode">{t('room.viewModeLabel', { mode: t(`room.viewModes.${viewMode}`) })}</p>
          <ConnectionStatus state={connection} />
        </header>
      }
      toolbar={toolbar}
    >
      <div className={`attendee-stage attendee-stage--${viewMode}`}>
        {all.broadcastMode && <p className="video-note">{t('room.broadcastActive')}</p>}
        <VideoStage grant={video} mutedAll={all.mutedAll} layout={viewMode === 'videoGrid' ? 'grid' : 'speaker'} />
        {viewMode !== 'onlyYou' && (
          <SlideView position={t('slides.position', { number })} slide={slideAt(slides, number)} />
        )}
        {all.currentDynamicPage && (
          <section className="dynamic-page" data-testid="dynamic-page">
            <p>
              {t('room.dynamicPage', {
                type: all.currentDynamicPage.productId ? t('cockpit.productPage') : all.currentDynamicPage.type,
              })}
            </p>
            {all.currentDynamicPage.productId && (
              <HighlightedProduct productId={all.currentDynamicPage.productId} contextToken={session.newContextToken} />
            )}
          </section>
        )}
        {all.currentGuideProductId && (
          <HighlightedProduct productId={all.currentGuideProductId} contextToken={session.newContextToken} />
        )}
        {cartPermission === 'granted' && <p className="video-note">{t('room.cartGranted')}</p>}
      </div>
      {cartPermission === 'requested' && <CartPermissionDialog room={room} />}
    </RoomShell>
  );
}
