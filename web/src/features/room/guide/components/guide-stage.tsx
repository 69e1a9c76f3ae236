import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import { ConnectionStatus } from '@/components/connection-status';
import { openConfirm } from '@/features/room/components/confirm';
import { DynamicProductPage } from '@/features/room/components/dynamic-page';
import { HighlightedProduct } from '@/features/room/components/highlighted-product';
import { openProductModal } from '@/features/room/components/product-modal';
import type { RoomSlideTools } from '@/features/room/components/room-cms';
import { RoomShell } from '@/features/room/components/room-shell';
import { createSlideCache, firstImageOf, slideKeyOf } from '@/features/room/session/slide-cache';
import { Toolbar, ToolbarGroup } from '@/features/room/components/toolbar';
import { SlideView } from '@/features/room/components/slide-view';
import { openMediaSettings } from '@/components/video/media-settings';
import { VideoStage } from '@/components/video/video-stage';
import { useRuntimeConfig } from '@/config/runtime';
import { currentSlideOf, getSlideData, getSlides, slideAt, slideNumber, structureReloadOf, type Slide } from '@/features/room/api/presentation';
import type { AdminSession } from '@/lib/api/shop';
import { useLocalePath } from '@/lib/i18n';
import { isLargeScreen } from '@/features/room/utils/large-screen';
import type { HubSession } from '@/features/room/realtime/client';
import { useRealtimeClient } from '@/features/room/realtime/use-realtime-client';
import { createInstantListing, listingProducts, searchProducts, updateInstantListing, widgetsApi, type ListingLayout } from '../api/room-admin';
import { changeAttendeeCart, loadAttendeeCart, loadAttendeeCollections, loadAttendeeLikes } from '../api/attendees';
import { endAppointment, startAppointment } from '../api/lifecycle';
import { loadAdminSession } from '../stores/admin-session';
import { createCockpitStore, VIEW_MODE_OF, viewControlOf, type ViewControl } from '../stores/cockpit';
import { cartToReload, createInsightsStore, type InsightsState } from '../stores/insights';
import { createInstantListingStore } from '../stores/instant-listing';
import { createWidgetsStore } from '../stores/widgets';
import { InstantListingEditor } from './instant-listing-editor';
import { WidgetsPanel } from './widgets-panel';
import { openBroadcastSetup } from './broadcast-setup';
import { ParticipantsSidebar } from './participants-sidebar';
import { openProductHighlighter } from './product-highlighter';
import { SlideNavigator } from './slide-navigator';

interface GuideStageProps {
  appointmentId: string;
  appointmentName: string;
  slides: Slide[];
  hub: HubSession;
  session: AdminSession;
  contextToken: string;
  salesChannelId: string;
}

const VIEW_CONTROLS: ViewControl[] = ['conference', 'speech', 'content'];

/** The guide's cockpit: lifecycle, slides and notes, view controls, participants, media, highlights. */
export function GuideStage({
  appointmentId,
  appointmentName,
  slides: initialSlides,
  hub,
  session,
  contextToken,
  salesChannelId,
}: GuideStageProps) {
  const { t } = useTranslation();
  const config = useRuntimeConfig();
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const client = useRealtimeClient(hub);
  const [cockpit] = useState(() => createCockpitStore(isLargeScreen(window.innerWidth)));
  const connection = useStore(client.store, (state) => state.connection);
  const all = useStore(client.store, (state) => state.snapshot?.stateForAll);
  const video = useStore(client.store, (state) => state.video);
  const { leftSidebar, rightSidebar, failed } = useStore(cockpit);
  const [switching, setSwitching] = useState(false);
  const [slides, setSlides] = useState(initialSlides);
  const [structureVersion, setStructureVersion] = useState(0);
  const [slideCache] = useState(() => createSlideCache(({ pageId, sectionId }) => getSlideData(config, contextToken, pageId, sectionId)));
  const [thumbnails, setThumbnails] = useState<Record<string, string | null>>({});
  const [showWidgets, setShowWidgets] = useState(false);
  const [goToSlide, setGoToSlide] = useState<number | null>(null);
  const [widgets] = useState(() => createWidgetsStore(widgetsApi(config, () => loadAdminSession() ?? session, appointmentId)));
  const guides = useStore(client.store, (state) => state.snapshot?.stateForGuides);
  const listingLayout = useMemo<ListingLayout | null>(() => {
    const template = slides.find((slide) => slide.isInstantListing);
    return template ? { pageId: template.cmsPageId, slideId: template.sectionId } : null;
  }, [slides]);
  const [listing] = useState(() =>
    createInstantListingStore({
      async create(draft) {
        if (!layoutRef.current) throw new Error('no listing layout');
        const index = await createInstantListing(config, loadAdminSession() ?? session, appointmentId, {
          productIds: draft.products.map((product) => product.id),
          pageName: draft.name.trim() || null,
          currentPageGroupId: currentRef.current?.groupId ?? null,
          layout: layoutRef.current,
        });
        // The new slide is shown once the structure has it.
        if (index) setGoToSlide(index);
        setStructureVersion((version) => version + 1);
      },
      async update(draft) {
        if (!layoutRef.current) throw new Error('no listing layout');
        await updateInstantListing(config, loadAdminSession() ?? session, appointmentId, {
          groupId: draft.groupId,
          productIds: draft.products.map((product) => product.id),
          pageName: draft.name.trim() || null,
          layout: layoutRef.current,
        });
      },
    }),
  );
  const listingDraft = useStore(listing, (state) => state.draft);
  const search = useMemo(() => (term: string) => searchProducts(config, loadAdminSession() ?? session, term), [config, session]);
  const slideTools = useMemo<RoomSlideTools>(
    () => ({
      contextToken,
      onOpen: (productId, name) => openProductModal(name, { productId, contextToken }),
    }),
    [contextToken],
  );
  const [insights] = useState(() =>
    createInsightsStore({
      cart: (attendeeId) => loadAttendeeCart(config, loadAdminSession() ?? session, { salesChannelId, attendeeId }),
      async changeLine(attendeeId, lineItemId, quantity) {
        const cart = await changeAttendeeCart(config, loadAdminSession() ?? session, { salesChannelId, attendeeId }, lineItemId, quantity);
        // The attendee's room reloads its cart on this hint.
        client.sendAction({ key: 'loadCart', payload: { attendeeId } }).catch((error: unknown) => console.warn(error));
        return cart;
      },
      likes: (attendeeIds) => loadAttendeeLikes(config, loadAdminSession() ?? session, attendeeIds),
      collections: (attendeeId) => loadAttendeeCollections(config, loadAdminSession() ?? session, attendeeId),
    }),
  );

  // Likes and cart hints come as events; a new grant or a cart hint reloads that cart.
  useEffect(
    () =>
      client.onEvent((event) => {
        insights.getState().applyEvent(event);
        widgets.getState().applyEvent(event);
        if (event.kind === 'cartPermissionChanged' && event.permission !== 'granted') insights.getState().forgetCart(event.attendeeId);
        if (event.kind === 'cartPermissionChanged' && event.permission === 'granted') void insights.getState().loadCollections(event.attendeeId);
        const reload = cartToReload(event, client.store.getState().snapshot?.stateForGuides);
        if (reload) void insights.getState().loadCart(reload);
        const structure = structureReloadOf(event);
        if (structure) {
          if (structure.pageId) slideCache.forget(structure.pageId);
          setStructureVersion((version) => version + 1);
        }
      }),
    [client, insights, slideCache, widgets],
  );

  // The structure again after an instant listing changed it.
  useEffect(() => {
    if (structureVersion === 0) return;
    let cancelled = false;
    getSlides(config, contextToken)
      .then((loaded) => !cancelled && setSlides(loaded))
      .catch((error: unknown) => console.warn('could not reload the presentation structure', error));
    return () => {
      cancelled = true;
    };
  }, [config, contextToken, structureVersion]);

  // Every slide loads in the background, one after the other: the thumbnails, and switches show at once.
  useEffect(() => {
    let cancelled = false;
    void (async () => {
      for (const slide of slides) {
        if (cancelled) return;
        const key = { pageId: slide.groupId, sectionId: slide.sectionId };
        try {
          const data = await slideCache.load(key);
          if (!cancelled) setThumbnails((known) => ({ ...known, [slideKeyOf(key)]: firstImageOf(data) ?? null }));
        } catch {
          // The slide shows its own error when it is switched to.
        }
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [slides, slideCache]);

  // After each (re)connect: the likes so far and the carts the guide may see.
  const welcomed = connection === 'connected' || connection === 'reconnected';
  useEffect(() => {
    if (!welcomed) return;
    const guides = client.store.getState().snapshot?.stateForGuides;
    const attendees = guides ? [...Object.values(guides.clients), ...Object.values(guides.inactiveClients)] : [];
    void insights.getState().loadLikes(attendees.flatMap((attendee) => (attendee ? [attendee.attendeeId] : [])));
    for (const attendee of attendees) {
      if (attendee?.cartPermission !== 'granted') continue;
      void insights.getState().loadCart(attendee.attendeeId);
      void insights.getState().loadCollections(attendee.attendeeId);
    }
  }, [welcomed, client, insights]);

  const number = slideNumber(all?.currentSlideAlias ?? 0);
  const alias = all?.currentSlideAlias ?? 0;
  const pageId = all?.currentPageId ?? null;
  const sectionId = all?.currentSectionId ?? null;
  const current = useMemo(
    () => currentSlideOf(slides, { currentSlideAlias: alias, currentPageId: pageId, currentSectionId: sectionId }),
    [slides, alias, pageId, sectionId],
  );
  const layoutRef = useRef(listingLayout);
  layoutRef.current = listingLayout;
  const currentRef = useRef(current);
  currentRef.current = current;

  // After publishing a new listing: to its slide, once the structure has it.
  useEffect(() => {
    if (goToSlide === null) return;
    const target = slideAt(slides, goToSlide);
    if (!target || !target.isInstantListing) return;
    setGoToSlide(null);
    void switchToRef.current?.(target);
  }, [goToSlide, slides]);

  const previous = slideAt(slides, number - 1);
  const next = slideAt(slides, number + 1);
  const live = connection === 'connected' || connection === 'reconnected';
  const ended = all?.ended ?? false;
  const started = all?.started ?? false;
  const locked = all?.locked ?? false;
  const mutedAll = all?.mutedAll ?? false;
  const viewControl = viewControlOf(all?.viewMode ?? 'presentation');
  const canAct = live && !ended;

  /** Runs a hub request; a failure shows the cockpit's alert. */
  async function act(request: () => Promise<unknown>) {
    cockpit.getState().setFailed(false);
    try {
      await request();
    } catch {
      cockpit.getState().setFailed(true);
    }
  }

  const switchToRef = useRef<((slide: Slide) => Promise<void>) | null>(null);
  switchToRef.current = switchTo;
  async function switchTo(slide: Slide) {
    setSwitching(true);
    await act(() =>
      client.sendAction({
        key: 'switchSlide',
        payload: { pageId: slide.groupId, sectionId: slide.sectionId, slideAlias: slide.index },
      }),
    );
    setSwitching(false);
  }

  const confirmStart = () =>
    openConfirm({
      title: t('cockpit.startTitle'),
      text: t('cockpit.startText'),
      confirmLabel: t('cockpit.startConfirm'),
      cancelLabel: t('cockpit.cancel'),
      failedText: t('cockpit.actionFailed'),
      onConfirm: () => startAppointment(config, session, appointmentId),
    });
  const confirmEnd = () =>
    openConfirm({
      title: t('cockpit.endTitle'),
      text: t('cockpit.endText'),
      confirmLabel: t('cockpit.endConfirm'),
      cancelLabel: t('cockpit.cancel'),
      failedText: t('cockpit.actionFailed'),
      danger: true,
      onConfirm: () => endAppointment(config, session, appointmentId),
    });
  const confirmLock = () =>
    openConfirm({
      title: t('cockpit.lockTitle'),
      text: t('cockpit.lockText'),
      confirmLabel: t('cockpit.lockConfirm'),
      cancelLabel: t('cockpit.cancel'),
      failedText: t('cockpit.actionFailed'),
      onConfirm: () => client.sendAction({ key: 'setLocked', payload: { locked: true } }),
    });
  const confirmMuteAll = () =>
    openConfirm({
      title: t('cockpit.muteAllTitle'),
      text: t('cockpit.muteAllText'),
      confirmLabel: t('cockpit.muteAllConfirm'),
      cancelLabel: t('cockpit.cancel'),
      failedText: t('cockpit.actionFailed'),
      onConfirm: () => client.sendAction({ key: 'muteAll', payload: { muted: true } }),
    });

  const phase = ended ? 'ended' : started ? 'running' : 'notStarted';
  const header = (
    <header className="stage__header cockpit__header">
      <h1 title={appointmentName}>{appointmentName}</h1>
      <p className="phase" data-phase={phase} data-testid="presentation-phase">
        {t(`cockpit.${phase}`)}
      </p>
      {locked && <p className="badge">{t('cockpit.lockedBadge')}</p>}
      {mutedAll && <p className="badge">{t('cockpit.mutedBadge')}</p>}
      {/* The view controls sit with the header: the toolbar keeps the menu groups of spec section 2. */}
      <div className="segmented cockpit__views" role="radiogroup" aria-label={t('cockpit.viewControls')}>
        {VIEW_CONTROLS.map((control) => (
          <button
            key={control}
            type="button"
            role="radio"
            aria-checked={viewControl === control}
            className="segmented__option"
            disabled={!canAct}
            onClick={() =>
              act(() => client.sendInteraction({ name: 'viewMode.changed', payload: { mode: VIEW_MODE_OF[control] } }))
            }
          >
            {t(`cockpit.${control}`)}
          </button>
        ))}
      </div>
      <div className="cockpit__lifecycle">
        {!started && !ended && (
          <button type="button" className="button button--primary" disabled={!live} onClick={confirmStart}>
            {t('cockpit.start')}
          </button>
        )}
        <button
          type="button"
          className="button"
          aria-pressed={locked}
          disabled={!canAct}
          onClick={() => (locked ? act(() => client.sendAction({ key: 'setLocked', payload: { locked: false } })) : confirmLock())}
        >
          {locked ? t('cockpit.unlock') : t('cockpit.lock')}
        </button>
        {!ended && (
          <button type="button" className="button button--danger" disabled={!live} onClick={confirmEnd}>
            {t('cockpit.end')}
          </button>
        )}
      </div>
      <ConnectionStatus state={connection} />
    </header>
  );

  const toolbar = (
    <Toolbar label={t('cockpit.toolbar')}>
      <ToolbarGroup name="navigation" label={t('cockpit.groups.navigation')}>
        <button type="button" className="button" aria-pressed={leftSidebar} onClick={() => cockpit.getState().toggleLeft()}>
          {t('cockpit.slides')}
        </button>
      </ToolbarGroup>
      <ToolbarGroup name="slide" label={t('cockpit.groups.slide')}>
        <button
          type="button"
          className="button button--icon"
          disabled={!previous || !canAct || switching}
          onClick={() => previous && switchTo(previous)}
          aria-label={t('slides.previous')}
          title={t('slides.previous')}
        >
          <span aria-hidden="true">←</span>
        </button>
        <button
          type="button"
          className="button button--primary"
          disabled={!next || !canAct || switching}
          onClick={() => next && switchTo(next)}
        >
          {t('slides.next')} <span aria-hidden="true">→</span>
        </button>
      </ToolbarGroup>
      <ToolbarGroup name="interaction" label={t('cockpit.groups.interaction')}>
        <button
          type="button"
          className="button"
          disabled={!canAct}
          onClick={() =>
            openProductHighlighter(t('cockpit.highlightTitle'), (productId) =>
              client.sendInteraction({ name: 'product.viewed', payload: { productId } }),
            )
          }
        >
          {t('cockpit.highlight')}
        </button>
        <button
          type="button"
          className="button"
          disabled={!canAct || !listingLayout || listingDraft !== null}
          title={listingLayout ? undefined : t('instantListing.noLayout')}
          onClick={() => listing.getState().startNew(t('instantListing.defaultName'))}
        >
          {t('instantListing.create')}
        </button>
        {current?.isInstantListing && (
          <button
            type="button"
            className="button"
            disabled={!canAct || listingDraft !== null}
            onClick={() => {
              const slide = current;
              void act(async () => {
                const products = await listingProducts(config, contextToken, slide.groupId);
                listing.getState().edit(slide.groupId, slide.groupName, products);
              });
            }}
          >
            {t('instantListing.edit')}
          </button>
        )}
        <button type="button" className="button" aria-pressed={showWidgets} onClick={() => setShowWidgets(!showWidgets)}>
          {t('widgets.toggle')}
        </button>
      </ToolbarGroup>
      <ToolbarGroup name="guide" label={t('cockpit.groups.guide')}>
        <button type="button" className="button" disabled={!canAct} onClick={() => openBroadcastSetup(t('cockpit.broadcastTitle'), client)}>
          {t('cockpit.broadcast')}
        </button>
      </ToolbarGroup>
      <ToolbarGroup name="media" label={t('cockpit.groups.media')}>
        <button type="button" className="button" onClick={() => openMediaSettings(t('video.mediaSettings'))}>
          {t('video.mediaButton')}
        </button>
        {mutedAll ? (
          <button
            type="button"
            className="button"
            disabled={!canAct}
            onClick={() => act(() => client.sendAction({ key: 'muteAll', payload: { muted: false } }))}
          >
            {t('cockpit.unmuteAll')}
          </button>
        ) : (
          <button type="button" className="button" disabled={!canAct} onClick={confirmMuteAll}>
            {t('cockpit.muteAll')}
          </button>
        )}
      </ToolbarGroup>
      <ToolbarGroup name="participant" label={t('cockpit.groups.participant')}>
        <button type="button" className="button" aria-pressed={rightSidebar} onClick={() => cockpit.getState().toggleRight()}>
          {t('cockpit.participants')}
        </button>
      </ToolbarGroup>
      <ToolbarGroup name="leave" label={t('cockpit.groups.leave')}>
        <button type="button" className="button" onClick={() => navigate(localePath('/') || '/')}>
          {t('room.leave')}
        </button>
      </ToolbarGroup>
    </Toolbar>
  );

  return (
    <RoomShell
      header={header}
      toolbar={toolbar}
      left={
        leftSidebar ? (
          <SlideNavigator
            slides={slides}
            current={number}
            thumbnails={thumbnails}
            disabled={!canAct || switching}
            onSelect={(slide) => {
              void switchTo(slide);
              // On smaller screens the slides are a sheet over the stage: it closes to show the slide.
              if (!isLargeScreen(window.innerWidth)) cockpit.getState().toggleLeft();
            }}
          />
        ) : undefined
      }
      right={
        rightSidebar ? (
          <ParticipantsSidebar
            client={client}
            insights={insights}
            contextToken={contextToken}
            onRequestCart={(attendeeId) => act(() => client.sendAction({ key: 'requestCartPermission', payload: { attendeeId } }))}
          />
        ) : undefined
      }
    >
      {failed && (
        <p className="alert" role="alert">
          {t('cockpit.actionFailed')}
        </p>
      )}
      <div className={`guide-stage guide-stage--${viewControl}`}>
        {listingDraft && <InstantListingEditor store={listing} search={search} />}
        {showWidgets && <WidgetsPanel widgets={widgets} guides={guides} />}
        {all?.broadcastMode && <p className="video-note">{t('room.broadcastActive')}</p>}
        <VideoStage grant={video} mutedAll={false} layout={viewControl === 'conference' ? 'grid' : 'speaker'} />
        <SlideView position={t('slides.positionOf', { number, total: slides.length })} slide={current} cache={slideCache} tools={slideTools} sectionNames />
        {all?.currentDynamicPage?.productId && <DynamicProductPage productId={all.currentDynamicPage.productId} tools={slideTools} />}
        {all?.currentGuideProductId && (
          <HighlightedProduct
            productId={all.currentGuideProductId}
            contextToken={contextToken}
            actions={() => all.currentGuideProductId && <LikedBy insights={insights} productId={all.currentGuideProductId} />}
          />
        )}
        <div className="confirm__actions dynamic-page-controls">
          {all?.currentGuideProductId && !all.currentDynamicPage && (
            <button
              type="button"
              className="button"
              disabled={!canAct}
              onClick={() => {
                const productId = all.currentGuideProductId;
                if (!productId) return;
                void act(() =>
                  client.sendInteraction({
                    name: 'dynamicProductPage.opened',
                    payload: { pageId: productId, type: 'productDetail', opened: true, productId },
                  }),
                );
              }}
            >
              {t('cockpit.openProductPage')}
            </button>
          )}
          {all?.currentDynamicPage && (
            <button
              type="button"
              className="button"
              disabled={!canAct}
              onClick={() => act(() => client.sendInteraction({ name: 'dynamicPage.closed', payload: { pageId: null, all: true } }))}
            >
              {t('cockpit.closePage')}
            </button>
          )}
        </div>
      </div>
    </RoomShell>
  );
}

/** How many attendees like the highlighted product. */
function LikedBy({ insights, productId }: { insights: StoreApi<InsightsState>; productId: string }) {
  const { t } = useTranslation();
  const count = useStore(insights, (state) => Object.values(state.likes).filter((ids) => ids.includes(productId)).length);
  return (
    <p className="highlight__liked" data-testid="liked-by">
      {t('cockpit.likedBy', { count })}
    </p>
  );
}
