import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { ConnectionStatus } from '@/components/connection-status';
import { SlideView } from '@/components/slide-view';
import { slideAt, slideNumber, type Slide } from '@/lib/api/presentation';
import type { HubSession } from '@/lib/realtime/client';
import { useRealtimeClient } from '@/lib/realtime/use-realtime-client';

interface GuideStageProps {
  appointmentName: string;
  slides: Slide[];
  hub: HubSession;
}

/** The live presentation as the guide runs it: the current slide and the slide controls. */
export function GuideStage({ appointmentName, slides, hub }: GuideStageProps) {
  const { t } = useTranslation();
  const client = useRealtimeClient(hub);
  const connection = useStore(client.store, (state) => state.connection);
  const alias = useStore(client.store, (state) => state.snapshot?.stateForAll.currentSlideAlias ?? 0);
  const [switching, setSwitching] = useState(false);
  const [failed, setFailed] = useState(false);

  const number = slideNumber(alias);
  const previous = slideAt(slides, number - 1);
  const next = slideAt(slides, number + 1);
  const live = connection === 'connected' || connection === 'reconnected';

  async function switchTo(slide: Slide) {
    setSwitching(true);
    setFailed(false);
    try {
      await client.sendAction({
        key: 'switchSlide',
        payload: { pageId: slide.cmsPageId, sectionId: slide.sectionId, slideAlias: slide.index },
      });
    } catch {
      setFailed(true);
    } finally {
      setSwitching(false);
    }
  }

  return (
    <section className="stage">
      <header className="stage__header">
        <h1>{appointmentName}</h1>
        <ConnectionStatus state={connection} />
      </header>
      <SlideView
        position={t('slides.positionOf', { number, total: slides.length })}
        slide={slideAt(slides, number)}
      />
      {failed && (
        <p className="alert" role="alert">
          {t('slides.switchFailed')}
        </p>
      )}
      <nav className="stage__controls" aria-label={t('slides.navigation')}>
        <button
          type="button"
          className="button"
          disabled={!previous || !live || switching}
          onClick={() => previous && switchTo(previous)}
        >
          <span aria-hidden="true">←</span> {t('slides.previous')}
        </button>
        <button
          type="button"
          className="button button--primary"
          disabled={!next || !live || switching}
          onClick={() => next && switchTo(next)}
        >
          {t('slides.next')} <span aria-hidden="true">→</span>
        </button>
      </nav>
    </section>
  );
}
