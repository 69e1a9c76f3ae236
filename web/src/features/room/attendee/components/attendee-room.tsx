import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router';
import { useStore } from 'zustand';
import { ConnectionStatus } from '@/components/connection-status';
import { LoadingOverlay } from '@/components/loading-overlay';
import { MessageScreen } from '@/components/message-screen';
import { VideoStage } from '@/components/video/video-stage';
import { WishlistToggle } from '@/components/wishlist-toggle';
import type { JoinAppointmentResponse } from '@/lib/api/shop';
import { useLocalePath } from '@/lib/i18n';
import { ensureCustomerKnown } from '@/lib/shop/known-customer';
import { currentSlideOf, slideAt, slideNumber } from '../../api/presentation';
import { DynamicProductPage } from '../../components/dynamic-page';
import { HighlightedProduct } from '../../components/highlighted-product';
import { openProductModal } from '../../components/product-modal';
import type { RoomSlideTools } from '../../components/room-cms';
import { RoomShell } from '../../components/room-shell';
import { SlideView } from '../../components/slide-view';
import { StageLayout } from '../../components/stage-layout';
import { useRuntimeConfig } from '@/config/runtime';
import { renameAttendee } from '../api/rename-attendee';
import { createAttendeeNameStore } from '../stores/attendee-name';
import { loadAttendeeSession, rememberAttendeeName } from '../stores/attendee-session';
import { createSidebarsStore } from '../stores/sidebars';
import { AttendeeName } from './attendee-name';
import { AttendeeSidebarPanel } from './attendee-sidebars';
import { AttendeeToolbar } from './attendee-toolbar';
import { CartPermissionDialog } from './cart-permission-dialog';
import { EndScreen } from './end-screen';
import { LikeToggle } from './like-toggle';
import { SelfNavigation, useOwnSlide } from './self-navigation';
import type { RoomTools } from './room-tools';
import { useAppointmentName } from './use-appointment-name';
import { useAttendeeRoom } from './use-attendee-room';
import './attendee-room.css';
import { EngagementPanel } from '../../engagement/engagement-panel';

/** The attendee's view of a presentation; without a join it goes to the pre-join screen. */
export function AttendeeRoom() {
  const { appointmentId = '' } = useParams();
  const localePath = useLocalePath();
  const [session] = useState(() => loadAttendeeSession(appointmentId));
  if (!session) return <Navigate to={localePath(`/presentation/${appointmentId}/prejoin`)} replace />;
  return <AttendeeStage key={appointmentId} appointmentId={appointmentId} joined={session} />;
}

function AttendeeStage({ appointmentId, joined }: { appointmentId: string; joined: JoinAppointmentResponse }) {
  const { t } = useTranslation();
  const localePath = useLocalePath();
  const { session, connection, screen } = useAttendeeRoom(appointmentId, joined);
  const all = useStore(session.client.store, (state) => state.snapshot?.stateForAll);
  const video = useStore(session.client.store, (state) => state.video);
  const cartPermission = useStore(session.client.store, (state) => state.cartPermission);
  const closedFor = useStore(session.client.store, (state) => state.closedFor);
  const slides = useStore(session.structure, (state) => state.slides);
  // Self-service: no guide; the attendee goes through the slides alone.
  const selfGuided = joined.presentationGuideMode === 'self';
  const [ownNumber, goToSlide] = useOwnSlide(appointmentId, slides.length);
  const [sidebars] = useState(createSidebarsStore);
  const config = useRuntimeConfig();
  const appointmentName = useAppointmentName(joined);
  const [attendeeName] = useState(() =>
    createAttendeeNameStore(joined.attendeeName ?? '', {
      save: (name) => renameAttendee(config, joined.newContextToken, name),
      remember: (name) => rememberAttendeeName(appointmentId, name),
    }),
  );
  const openSidebar = useStore(sidebars, (state) => state.open);
  const highlighted = all?.currentGuideProductId ?? null;
  const contextToken = joined.newContextToken;

  // The room's data loads while it shows (and again after a reconnect).
  useEffect(() => session.enterRoom(), [session]);
  // The wishlist is the server's for a logged-in customer: the room asks who is logged in.
  useEffect(ensureCustomerKnown, []);

  const tools = useMemo<RoomTools>(() => {
    const value: RoomTools = {
      contextToken,
      session,
      collections: session.collections,
      sidebars,
      openProduct(productId, name) {
        session.viewed(productId);
        openProductModal(name, {
          productId,
          contextToken,
          onAddToCart: (id, quantity) => session.addToCart(id, quantity),
          actions: (product) => (
            <>
              <LikeToggle tools={value} productId={product.id} name={product.name} large />
              <WishlistToggle productId={product.id} name={product.name} />
            </>
          ),
        });
      },
    };
    return value;
  }, [session, sidebars, contextToken]);

  const slideTools = useMemo<RoomSlideTools>(
    () => ({
      contextToken,
      onOpen: (productId, name) => tools.openProduct(productId, name),
      actions: (product) => <LikeToggle tools={tools} productId={product.id} name={product.name} />,
    }),
    [tools, contextToken],
  );

  const alias = all?.currentSlideAlias ?? 0;
  const pageId = all?.currentPageId ?? null;
  const sectionId = all?.currentSectionId ?? null;
  const current = useMemo(
    () =>
      selfGuided
        ? slideAt(slides, ownNumber)
        : currentSlideOf(slides, { currentSlideAlias: alias, currentPageId: pageId, currentSectionId: sectionId }),
    [selfGuided, slides, ownNumber, alias, pageId, sectionId],
  );

  if (screen === 'waiting') return <Navigate to={localePath(`/presentation/${appointmentId}/waiting`)} replace />;
  if (screen === 'ended') return <EndScreen appointmentName={appointmentName} />;
  if (closedFor === 'removed') {
    return (
      <MessageScreen title={t('room.removedTitle')}>{t('room.removedText')}</MessageScreen>
    );
  }
  if (closedFor === 'locked') return <MessageScreen title={t('room.lockedTitle')}>{t('room.locked')}</MessageScreen>;
  if (screen === 'loading' || !all) {
    return (
      <>
        <LoadingOverlay />
        <ConnectionStatus state={connection} />
      </>
    );
  }

  const number = selfGuided ? ownNumber : slideNumber(all.currentSlideAlias);
  const position = selfGuided ? t('slides.positionOf', { number, total: slides.length }) : t('slides.position', { number });
  const viewMode = all.viewMode;
  const toolbar = <AttendeeToolbar tools={tools} />;

  return (
    <RoomShell
      header={
        <header className="stage__header">
          <h1>{appointmentName}</h1>
          <p className="room__mode">{t('room.viewModeLabel', { mode: t(`room.viewModes.${viewMode}`) })}</p>
          <AttendeeName store={attendeeName} />
          <ConnectionStatus state={connection} />
        </header>
      }
      toolbar={toolbar}
      right={openSidebar ? <AttendeeSidebarPanel tools={tools} open={openSidebar} /> : undefined}
    >
      <StageLayout
        className={`attendee-stage attendee-stage--${viewMode}`}
        focus={
          highlighted && (
            <HighlightedProduct
              productId={highlighted}
              contextToken={contextToken}
              onOpen={(name) => tools.openProduct(highlighted, name)}
              actions={(name) => <LikeToggle tools={tools} productId={highlighted} name={name} large />}
            />
          )
        }
      >
        {all.broadcastMode && <p className="video-note">{t('room.broadcastActive')}</p>}
        <VideoStage
          grant={video}
          mutedAll={all.mutedAll}
          layout={viewMode === 'videoGrid' ? 'grid' : 'speaker'}
          cameraAllowed={all.videoAudioSettings !== 'audio-only'}
        />
        {viewMode !== 'onlyYou' && (
          <SlideView position={position} slide={current} cache={session.slideCache} tools={slideTools} />
        )}
        {selfGuided && <SelfNavigation number={ownNumber} slides={slides} cache={session.slideCache} onGo={goToSlide} />}
        {/* Only the guide, and no video to show them: say so instead of an empty stage. */}
        {viewMode === 'onlyYou' && !video && (
          <section className="slide slide--speech" data-testid="speech-view" aria-labelledby="speech-view-title">
            <p className="slide__position">{t('room.viewModes.onlyYou')}</p>
            <h2 className="slide__title" id="speech-view-title">
              {t('room.speechTitle')}
            </h2>
            <p className="slide__text">{t('room.speechText')}</p>
          </section>
        )}
        {all.currentDynamicPage && (
          <div className="dynamic-page-frame">
            <p className="video-note">
              {t('room.dynamicPage', {
                type: all.currentDynamicPage.productId ? t('cockpit.productPage') : all.currentDynamicPage.type,
              })}
            </p>
            {all.currentDynamicPage.productId && (
              <DynamicProductPage
                productId={all.currentDynamicPage.productId}
                tools={slideTools}
                fallbackActions={(name) =>
                  all.currentDynamicPage?.productId ? <LikeToggle tools={tools} productId={all.currentDynamicPage.productId} name={name} large /> : null
                }
              />
            )}
          </div>
        )}
        {cartPermission === 'granted' && <p className="video-note">{t('room.cartGranted')}</p>}
      </StageLayout>
      <EngagementPanel session={session} />
      {cartPermission === 'requested' && <CartPermissionDialog room={session.answers} />}
    </RoomShell>
  );
}
