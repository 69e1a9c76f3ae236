import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import { ConnectionStatus } from '@/components/connection-status';
import { openMediaSettings } from '@/components/video/media-settings';
import { VideoStage } from '@/components/video/video-stage';
import { useLocalePath } from '@/lib/i18n';
import { currentSlideOf, slideAt, slideNumber, type Slide } from '../../api/presentation';
import { openConfirm } from '../../components/confirm';
import { DynamicProductPage } from '../../components/dynamic-page';
import { HighlightedProduct } from '../../components/highlighted-product';
import { openProductModal } from '../../components/product-modal';
import type { RoomSlideTools } from '../../components/room-cms';
import { RoomShell } from '../../components/room-shell';
import { SlideView } from '../../components/slide-view';
import { Toolbar, ToolbarGroup } from '../../components/toolbar';
import { listingLayoutOf } from '../../session/room-session';
import { useGuideSession, type GuideRoomProps } from '../../session/use-room-session';
import { isLargeScreen } from '../../utils/large-screen';
import { createCockpitStore, VIEW_MODE_OF, viewControlOf, type ViewControl } from '../stores/cockpit';
import type { InsightsState } from '../stores/insights';
import { openBroadcastSetup } from './broadcast-setup';
import { InstantListingEditor } from './instant-listing-editor';
import { ParticipantsSidebar } from './participants-sidebar';
import { openProductHighlighter } from './product-highlighter';
import { SlideNavigator } from './slide-navigator';
import { WidgetsPanel } from './widgets-panel';

interface GuideStageProps extends GuideRoomProps {
  appointmentName: string;
}

const VIEW_CONTROLS: ViewControl[] = ['conference', 'speech', 'content'];

/** The guide's cockpit: lifecycle, slides and notes, view controls, participants, media, highlights. */
export function GuideStage({ appointmentName, ...room }: GuideStageProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const localePath = useLocalePath();
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
  const listingLayout = useMemo(() => listingLayoutOf(slides), [slides]);
  const listingDraft = useStore(listing, (state) => state.draft);
  const search = useCallback((term: string) => session.searchProducts(term), [session]);
  const contextToken = room.contextToken;
  const slideTools = useMemo<RoomSlideTools>(
    () => ({
      contextToken,
      onOpen: (productId, name) => openProductModal(name, { productId, contextToken }),
    }),
    [contextToken],
  );

  const number = slideNumber(all?.currentSlideAlias ?? 0);
  const alias = all?.currentSlideAlias ?? 0;
  const pageId = all?.currentPageId ?? null;
  const sectionId = all?.currentSectionId ?? null;
  const current = useMemo(
    () => currentSlideOf(slides, { currentSlideAlias: alias, currentPageId: pageId, currentSectionId: sectionId }),
    [slides, alias, pageId, sectionId],
  );

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

  async function switchTo(slide: Slide) {
    setSwitching(true);
    await act(() => session.switchSlide(slide));
    setSwitching(false);
  }

  const confirmStart = () =>
    openConfirm({
      title: t('cockpit.startTitle'),
      text: t('cockpit.startText'),
      confirmLabel: t('cockpit.startConfirm'),
      cancelLabel: t('cockpit.cancel'),
      failedText: t('cockpit.actionFailed'),
      onConfirm: () => session.startAppointment(),
    });
  const confirmEnd = () =>
    openConfirm({
      title: t('cockpit.endTitle'),
      text: t('cockpit.endText'),
      confirmLabel: t('cockpit.endConfirm'),
      cancelLabel: t('cockpit.cancel'),
      failedText: t('cockpit.actionFailed'),
      danger: true,
      onConfirm: () => session.endAppointment(),
    });
  const confirmLock = () =>
    openConfirm({
      title: t('cockpit.lockTitle'),
      text: t('cockpit.lockText'),
      confirmLabel: t('cockpit.lockConfirm'),
      cancelLabel: t('cockpit.cancel'),
      failedText: t('cockpit.actionFailed'),
      onConfirm: () => session.setLocked(true),
    });
  const confirmMuteAll = () =>
    openConfirm({
      title: t('cockpit.muteAllTitle'),
      text: t('cockpit.muteAllText'),
      confirmLabel: t('cockpit.muteAllConfirm'),
      cancelLabel: t('cockpit.cancel'),
      failedText: t('cockpit.actionFailed'),
      onConfirm: () => session.muteAll(true),
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
            onClick={() => act(() => session.setViewMode(VIEW_MODE_OF[control]))}
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
          onClick={() => (locked ? act(() => session.setLocked(false)) : confirmLock())}
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
            openProductHighlighter(t('cockpit.highlightTitle'), (productId) => session.highlightProduct(productId))
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
              void act(() => session.editListing(slide));
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
        <button type="button" className="button" disabled={!canAct} onClick={() => openBroadcastSetup(t('cockpit.broadcastTitle'), session)}>
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
            onClick={() => act(() => session.muteAll(false))}
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
            onRequestCart={(attendeeId) => act(() => session.requestCartPermission(attendeeId))}
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
        <SlideView position={t('slides.positionOf', { number, total: slides.length })} slide={current} cache={session.slideCache} tools={slideTools} sectionNames />
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
                void act(() => session.openProductPage(productId));
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
              onClick={() => act(() => session.closePages())}
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
