import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useParams } from 'react-router';
import { useStore } from 'zustand';
import { ConnectionStatus } from '@/components/connection-status';
import { LoadingOverlay } from '@/components/loading-overlay';
import { DynamicProductPage } from '@/features/room/components/dynamic-page';
import { HighlightedProduct } from '@/features/room/components/highlighted-product';
import { openProductModal } from '@/features/room/components/product-modal';
import type { RoomSlideTools } from '@/features/room/components/room-cms';
import { RoomShell } from '@/features/room/components/room-shell';
import { createSlideCache } from '@/features/room/session/slide-cache';
import { Toolbar, ToolbarGroup } from '@/features/room/components/toolbar';
import { SlideView } from '@/features/room/components/slide-view';
import { openMediaSettings } from '@/components/video/media-settings';
import { VideoStage } from '@/components/video/video-stage';
import { WishlistToggle } from '@/components/wishlist-toggle';
import { useRuntimeConfig } from '@/config/runtime';
import { currentSlideOf, getSlideData, getSlides, neighboursOf, slideNumber, structureReloadOf, type Slide } from '@/features/room/api/presentation';
import type { JoinAppointmentResponse } from '@/lib/api/shop';
import { useLocalePath } from '@/lib/i18n';
import { cartItemCount, cartStore } from '@/lib/shop/cart';
import { localWishlist } from '@/lib/shop/wishlist';
import { collectionsApi } from '../api/collections';
import { loadAttendeeSession } from '../stores/attendee-session';
import { createCollectionsStore } from '../stores/collections';
import { ATTENDEE_SIDEBARS, createSidebarsStore, type AttendeeSidebar } from '../stores/sidebars';
import { reloadsOf } from '../utils/reloads';
import { AttendeeSidebarPanel } from './attendee-sidebars';
import { CartPermissionDialog } from './cart-permission-dialog';
import { EndScreen } from './end-screen';
import { LikeToggle } from './like-toggle';
import type { RoomTools } from './room-tools';
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
  const ownId = useStore(client.store, (state) => state.attendeeId);
  const [collections] = useState(() => createCollectionsStore(collectionsApi(config, session.newContextToken)));
  const [sidebars] = useState(createSidebarsStore);
  const openSidebar = useStore(sidebars, (state) => state.open);
  const likeCount = useStore(collections, (state) => state.liked.length);
  const lastSeenCount = useStore(collections, (state) => state.lastSeen.length);
  const cartCount = useStore(cartStore, (state) => cartItemCount(state.cart));
  const wishlistCount = useStore(localWishlist, (state) => state.ids.length);
  const highlighted = all?.currentGuideProductId ?? null;
  const [slideCache] = useState(() =>
    createSlideCache(({ pageId, sectionId }) => getSlideData(config, session.newContextToken, pageId, sectionId)),
  );
  const [structureVersion, setStructureVersion] = useState(0);

  const tools = useMemo<RoomTools>(() => {
    const cartChanged = () => {
      const attendeeId = client.store.getState().attendeeId;
      client.sendAction({ key: 'loadCart', payload: { attendeeId } }).catch((error: unknown) => console.warn('could not tell the guide about the cart', error));
    };
    const addToCart = async (productId: string, quantity: number) => {
      await cartStore.getState().addProduct(productId, quantity);
      const errors = cartStore.getState().consumeErrors();
      cartChanged();
      const refused = errors.find((error) => error.level >= 20);
      if (refused) throw new Error(refused.message || refused.key);
    };
    const value: RoomTools = {
      contextToken: session.newContextToken,
      collections,
      sidebars,
      cartChanged,
      addToCart,
      openProduct(productId, name) {
        void collections.getState().viewed(productId);
        openProductModal(name, {
          productId,
          contextToken: session.newContextToken,
          onAddToCart: addToCart,
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
  }, [client, collections, sidebars, session.newContextToken]);

  const slideTools = useMemo<RoomSlideTools>(
    () => ({
      contextToken: session.newContextToken,
      onOpen: (productId, name) => tools.openProduct(productId, name),
      actions: (product) => <LikeToggle tools={tools} productId={product.id} name={product.name} />,
    }),
    [tools, session.newContextToken],
  );

  // Loaded at the start and again after a reconnect, which may have skipped events.
  const reconnected = connection === 'reconnected';
  useEffect(() => {
    void collections.getState().load();
    cartStore.getState().refresh().catch(() => undefined);
  }, [collections, reconnected]);

  // Collection changes and the guide's reload hints (its cart edits) reach this room by the hub.
  useEffect(
    () =>
      client.onEvent((event) => {
        collections.getState().applyEvent(event, client.store.getState().attendeeId);
        const reloads = reloadsOf(event, client.store.getState().attendeeId);
        if (reloads.cart) cartStore.getState().refresh().catch(() => undefined);
        if (reloads.collections) void collections.getState().load();
        // A new or changed instant listing: the structure (and that page's slides) again.
        const structure = structureReloadOf(event);
        if (structure) {
          if (structure.pageId) slideCache.forget(structure.pageId);
          setStructureVersion((version) => version + 1);
        }
      }),
    [client, collections, slideCache],
  );

  // What the guide shows counts as seen.
  useEffect(() => {
    if (highlighted && ownId) void collections.getState().viewed(highlighted);
  }, [highlighted, ownId, collections]);

  useEffect(() => {
    let cancelled = false;
    // Without the structure the slide number still shows; only its name is missing.
    getSlides(config, session.newContextToken)
      .then((loaded) => !cancelled && setSlides(loaded))
      .catch((error: unknown) => console.warn('could not load the presentation structure', error));
    return () => {
      cancelled = true;
    };
  }, [config, session, structureVersion, reconnected]);

  // The slides around the current one load ahead, so the next switch shows at once.
  const alias = all?.currentSlideAlias ?? 0;
  const pageId = all?.currentPageId ?? null;
  const sectionId = all?.currentSectionId ?? null;
  const current = useMemo(
    () => currentSlideOf(slides, { currentSlideAlias: alias, currentPageId: pageId, currentSectionId: sectionId }),
    [slides, alias, pageId, sectionId],
  );
  useEffect(() => {
    if (!current) return;
    for (const slide of neighboursOf(slides, current.index)) {
      slideCache.load({ pageId: slide.groupId, sectionId: slide.sectionId }).catch(() => undefined);
    }
  }, [current, slides, slideCache]);

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
          {t('video.mediaButton')}
        </button>
      </ToolbarGroup>
      <ToolbarGroup name="client" label={t('cockpit.groups.client')}>
        {ATTENDEE_SIDEBARS.map((name) => (
          <SidebarButton
            key={name}
            name={name}
            count={{ likes: likeCount, lastSeen: lastSeenCount, cart: cartCount, wishlist: wishlistCount }[name]}
            open={openSidebar === name}
            onToggle={() => sidebars.getState().toggle(name)}
          />
        ))}
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
      right={openSidebar ? <AttendeeSidebarPanel tools={tools} open={openSidebar} /> : undefined}
    >
      <div className={`attendee-stage attendee-stage--${viewMode}`}>
        {all.broadcastMode && <p className="video-note">{t('room.broadcastActive')}</p>}
        <VideoStage grant={video} mutedAll={all.mutedAll} layout={viewMode === 'videoGrid' ? 'grid' : 'speaker'} />
        {viewMode !== 'onlyYou' && (
          <SlideView position={t('slides.position', { number })} slide={current} cache={slideCache} tools={slideTools} />
        )}
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
        {highlighted && (
          <HighlightedProduct
            productId={highlighted}
            contextToken={session.newContextToken}
            onOpen={(name) => tools.openProduct(highlighted, name)}
            actions={(name) => <LikeToggle tools={tools} productId={highlighted} name={name} large />}
          />
        )}
        {cartPermission === 'granted' && <p className="video-note">{t('room.cartGranted')}</p>}
      </div>
      {cartPermission === 'requested' && <CartPermissionDialog room={room} />}
    </RoomShell>
  );
}

/** A toolbar button that opens or closes one sidebar, with its count. */
function SidebarButton({ name, count, open, onToggle }: { name: AttendeeSidebar; count: number; open: boolean; onToggle: () => void }) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className="button sidebar-toggle"
      aria-expanded={open}
      aria-label={t(`room.sidebars.${name}Count`, { count })}
      onClick={onToggle}
    >
      {t(`room.sidebars.${name}`)}
      <span className="sidebar-toggle__count" aria-hidden="true" data-testid={`count-${name}`}>
        {count}
      </span>
    </button>
  );
}
