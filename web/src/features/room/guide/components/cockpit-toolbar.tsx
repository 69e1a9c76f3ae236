import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import { openMediaSettings } from '@/components/video/media-settings';
import { useLocalePath } from '@/lib/i18n';
import { slideAt, slideNumber, type Slide } from '../../api/presentation';
import { openConfirm } from '../../components/confirm';
import { RoomMediaToggles } from '../../components/room-media-toggles';
import { Toolbar, ToolbarGroup } from '../../components/toolbar';
import { listingLayoutOf, type GuideSession } from '../session/guide-session';
import type { CockpitState } from '../stores/cockpit';
import { openBroadcastSetup } from './broadcast-setup';
import { openProductHighlighter } from './product-highlighter';

interface CockpitToolbarProps {
  session: GuideSession;
  cockpit: StoreApi<CockpitState>;
  /** Runs a hub request; a failure shows the cockpit's alert. */
  act: (request: () => Promise<unknown>) => Promise<void>;
  /** A slide switch is under way. */
  switching: boolean;
  onSwitch: (slide: Slide) => void;
  showWidgets: boolean;
  onToggleWidgets: () => void;
  showCatalogue: boolean;
  onToggleCatalogue: () => void;
  showTemplates: boolean;
  onToggleTemplates: () => void;
}

/** The cockpit's menu groups (spec section 2): navigation, slide, interaction, guide, media, participant, leave. */
export function CockpitToolbar({
  session,
  cockpit,
  act,
  switching,
  onSwitch: switchTo,
  showWidgets,
  onToggleWidgets,
  showCatalogue,
  onToggleCatalogue,
  showTemplates,
  onToggleTemplates,
}: CockpitToolbarProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const connection = useStore(session.client.store, (state) => state.connection);
  const all = useStore(session.client.store, (state) => state.snapshot?.stateForAll);
  const slides = useStore(session.structure, (state) => state.slides);
  const listingDraft = useStore(session.listing, (state) => state.draft);
  const { leftSidebar, rightSidebar } = useStore(cockpit);
  const listing = session.listing;
  const live = connection === 'connected' || connection === 'reconnected';
  const canAct = live && !(all?.ended ?? false);
  const mutedAll = all?.mutedAll ?? false;
  const number = slideNumber(all?.currentSlideAlias ?? 0);
  const previous = slideAt(slides, number - 1);
  const next = slideAt(slides, number + 1);
  const listingLayout = listingLayoutOf(slides);
  const current = session.currentSlide();

  const confirmMuteAll = () =>
    openConfirm({
      title: t('cockpit.muteAllTitle'),
      text: t('cockpit.muteAllText'),
      confirmLabel: t('cockpit.muteAllConfirm'),
      cancelLabel: t('cockpit.cancel'),
      failedText: t('cockpit.actionFailed'),
      onConfirm: () => session.muteAll(true),
    });

  return (
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
            openProductHighlighter(t('cockpit.highlightTitle'), {
              search: (term) => session.searchProducts(term),
              onHighlight: (productId) => session.highlightProduct(productId),
            })
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
        {current?.isInstantListing && (
          <button
            type="button"
            className="button button--danger"
            disabled={!canAct || listingDraft !== null}
            onClick={() => {
              const slide = current;
              openConfirm({
                title: t('instantListing.deletePublishedTitle', { name: slide.groupName }),
                text: t('instantListing.deletePublishedText'),
                confirmLabel: t('instantListing.deletePublishedConfirm'),
                cancelLabel: t('cockpit.cancel'),
                failedText: t('instantListing.deleteFailed'),
                danger: true,
                onConfirm: () => session.deleteListing(slide),
              });
            }}
          >
            {t('instantListing.delete')}
          </button>
        )}
        <button type="button" className="button" aria-pressed={showCatalogue} onClick={onToggleCatalogue}>
          {t('catalogue.toggle')}
        </button>
        <button type="button" className="button" aria-pressed={showTemplates} onClick={onToggleTemplates}>
          {t('templates.toggle')}
        </button>
        <button type="button" className="button" aria-pressed={showWidgets} onClick={onToggleWidgets}>
          {t('widgets.toggle')}
        </button>
      </ToolbarGroup>
      <ToolbarGroup name="guide" label={t('cockpit.groups.guide')}>
        <button type="button" className="button" disabled={!canAct} onClick={() => openBroadcastSetup(t('cockpit.broadcastTitle'), session)}>
          {t('cockpit.broadcast')}
        </button>
      </ToolbarGroup>
      <ToolbarGroup name="media" label={t('cockpit.groups.media')}>
        <RoomMediaToggles client={session.client} guide />
        <button type="button" className="button" onClick={() => openMediaSettings(t('video.mediaSettings'))}>
          {t('video.mediaButton')}
        </button>
        {mutedAll ? (
          <button
            type="button"
            className="button"
            disabled={!canAct}
            onClick={() => void act(() => session.muteAll(false))}
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
        <button type="button" className="button" onClick={() => void navigate(localePath('/') || '/')}>
          {t('room.leave')}
        </button>
      </ToolbarGroup>
    </Toolbar>
  );
}
