import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { neighboursOf, type Slide } from '../../api/presentation';
import type { SlideCache } from '../../session/slide-cache';
import './self-navigation.css';

const key = (appointmentId: string) => `salesroom.self-slide.${appointmentId}`;

/**
 * The slide an attendee of a self-service appointment is on: their own (no guide moves
 * anyone, and nothing is sent to the others), kept in the tab over a reload. Numbered
 * from 1, within the slides once they are known.
 */
export function useOwnSlide(appointmentId: string, total: number): [number, (number: number) => void] {
  const [number, setNumber] = useState(() => Number(sessionStorage.getItem(key(appointmentId))) || 1);
  const shown = total > 0 ? Math.min(Math.max(1, number), total) : 1;
  useEffect(() => {
    sessionStorage.setItem(key(appointmentId), String(shown));
  }, [appointmentId, shown]);
  return [shown, setNumber];
}

/** Previous and next for an attendee who goes through a self-service presentation alone; the slides around load ahead. */
export function SelfNavigation({
  number,
  slides,
  cache,
  onGo,
}: {
  number: number;
  slides: Slide[];
  cache: SlideCache;
  onGo: (number: number) => void;
}) {
  const { t } = useTranslation();
  useEffect(() => {
    for (const slide of neighboursOf(slides, number)) cache.load({ pageId: slide.groupId, sectionId: slide.sectionId }).catch(() => undefined);
  }, [slides, number, cache]);
  return (
    <nav className="self-navigation" aria-label={t('slides.navigation')}>
      <p className="self-navigation__note">{t('room.selfGuided')}</p>
      <div className="self-navigation__buttons">
        <button type="button" className="button" disabled={number <= 1} onClick={() => onGo(number - 1)}>
          {t('slides.previous')}
        </button>
        <button type="button" className="button button--primary" disabled={number >= slides.length} onClick={() => onGo(number + 1)}>
          {t('slides.next')}
        </button>
      </div>
    </nav>
  );
}
