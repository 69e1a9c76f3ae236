import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { VideoStage } from '@/components/video/video-stage';
import { currentSlideOf, slideNumber, type Slide } from '../../api/presentation';
import { DynamicProductPage } from '../../components/dynamic-page';
import { openProductModal } from '../../components/product-modal';
import type { RoomSlideTools } from '../../components/room-cms';
import { RoomShell } from '../../components/room-shell';
import { SlideView } from '../../components/slide-view';
import { StageLayout } from '../../components/stage-layout';
import { useGuideSession, type GuideRoomProps } from '../session/use-guide-session';
import { isLargeScreen } from '../../utils/large-screen';
import { createCockpitStore, viewControlOf } from '../stores/cockpit';
import { CataloguePanel } from './catalogue-panel';
import { CockpitHeader } from './cockpit-header';
import { CockpitToolbar } from './cockpit-toolbar';
import { InstantListingEditor } from './instant-listing-editor';
import { InteractionTemplatesPanel } from './interaction-templates-panel';
import { ParticipantsSidebar } from './participants-sidebar';
import { ProductFocus } from './product-focus';
import { SaveProductButton } from './save-product-button';
import { SlideHighlightButton } from './slide-highlight-button';
import { SlideNavigator } from './slide-navigator';
import { WidgetsPanel } from './widgets-panel';
import { EngagementPanel } from '../../engagement/engagement-panel';


interface GuideStageProps extends GuideRoomProps {
  appointmentName: string;
}

/** The guide's cockpit: lifecycle, slides and notes, view controls, participants, media, highlights. */
export function GuideStage({ appointmentName, ...room }: GuideStageProps) {
  const { t } = useTranslation();
  const session = useGuideSession(room);
  const { client, insights, widgets, listing } = session;
  const [cockpit] = useState(() => createCockpitStore(isLargeScreen(window.innerWidth)));
  const connection = useStore(client.store, (state) => state.connection);
  const all = useStore(client.store, (state) => state.snapshot?.stateForAll);
  const video = useStore(client.store, (state) => state.video);
  const guides = useStore(client.store, (state) => state.snapshot?.stateForGuides);
  const { leftSidebar, rightSidebar, failed } = useStore(cockpit);
  const { slides, thumbnails } = useStore(session.structure);
  const [switching, setSwitching] = useState(false);
  const [showWidgets, setShowWidgets] = useState(false);
  const [showCatalogue, setShowCatalogue] = useState(false);
  const [showTemplates, setShowTemplates] = useState(false);
  const listingDraft = useStore(listing, (state) => state.draft);
  const search = useCallback((term: string) => session.searchProducts(term), [session]);
  const contextToken = room.contextToken;

  // The saved products are known from the start: the slide's and the focus card's
  // "Save" buttons show which are saved already.
  useEffect(() => {
    if (session.saved.getState().products === null) void session.saved.getState().load().catch(() => undefined);
  }, [session]);

  const number = slideNumber(all?.currentSlideAlias ?? 0);
  const alias = all?.currentSlideAlias ?? 0;
  const pageId = all?.currentPageId ?? null;
  const sectionId = all?.currentSectionId ?? null;
  const current = useMemo(
    () => currentSlideOf(slides, { currentSlideAlias: alias, currentPageId: pageId, currentSectionId: sectionId }),
    [slides, alias, pageId, sectionId],
  );

  const live = connection === 'connected' || connection === 'reconnected';
  const ended = all?.ended ?? false;
  const viewControl = viewControlOf(all?.viewMode ?? 'presentation');
  const canAct = live && !ended;

  /** Runs a hub request; a failure shows the cockpit's alert. */
  const act = useCallback(
    async (request: () => Promise<unknown>) => {
      cockpit.getState().setFailed(false);
      try {
        await request();
      } catch {
        cockpit.getState().setFailed(true);
      }
    },
    [cockpit],
  );

  async function switchTo(slide: Slide) {
    setSwitching(true);
    await act(() => session.switchSlide(slide));
    setSwitching(false);
  }

  // Each product of the slide can be put in focus from the slide itself.
  const slideTools = useMemo<RoomSlideTools>(
    () => ({
      contextToken,
      onOpen: (productId, name) => openProductModal(name, { productId, contextToken }),
      actions: (product) => (
        <>
          <SlideHighlightButton session={session} product={product} act={act} />
          <SaveProductButton session={session} product={product} />
        </>
      ),
    }),
    [contextToken, session, act],
  );

  const header = <CockpitHeader session={session} appointmentId={room.appointmentId} appointmentName={appointmentName} act={act} />;

  const toolbar = (
    <CockpitToolbar
      session={session}
      cockpit={cockpit}
      act={act}
      switching={switching}
      onSwitch={(slide) => void switchTo(slide)}
      showWidgets={showWidgets}
      onToggleWidgets={() => setShowWidgets(!showWidgets)}
      showCatalogue={showCatalogue}
      onToggleCatalogue={() => setShowCatalogue(!showCatalogue)}
      showTemplates={showTemplates}
      onToggleTemplates={() => setShowTemplates(!showTemplates)}
    />
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
            removed={session.removed}
            contextToken={contextToken}
            onRequestCart={(attendeeId) => void act(() => session.requestCartPermission(attendeeId))}
            onRemove={(attendeeId) => session.removeAttendee(attendeeId)}
          />
        ) : undefined
      }
    >
      {failed && (
        <p className="alert" role="alert">
          {t('cockpit.actionFailed')}
        </p>
      )}
      <StageLayout
        className={`guide-stage guide-stage--${viewControl}`}
        focus={
          (all?.currentGuideProductId || all?.currentDynamicPage) && (
            <ProductFocus session={session} contextToken={contextToken} canAct={canAct} act={act} />
          )
        }
      >
        {listingDraft && <InstantListingEditor store={listing} search={search} />}
        {showCatalogue && <CataloguePanel session={session} canAct={canAct} act={act} />}
        {showTemplates && <InteractionTemplatesPanel session={session} canAct={canAct} act={act} />}
        {showWidgets && <WidgetsPanel widgets={widgets} guides={guides} carts={insights} />}
        {all?.broadcastMode && <p className="video-note">{t('room.broadcastActive')}</p>}
        <VideoStage grant={video} mutedAll={false} layout={viewControl === 'conference' ? 'grid' : 'speaker'} />
        <SlideView position={t('slides.positionOf', { number, total: slides.length })} slide={current} cache={session.slideCache} tools={slideTools} sectionNames />
        {all?.currentDynamicPage?.productId && <DynamicProductPage productId={all.currentDynamicPage.productId} tools={slideTools} />}
      </StageLayout>
      <EngagementPanel session={session} />
    </RoomShell>
  );
}
