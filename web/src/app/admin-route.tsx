import { useMemo } from 'react';
import { AdminApp } from '@/features/admin/admin-app';
import { SlideRendererProvider, type PreviewSlide } from '@/features/admin/presentations/slide-preview';
import type { Slide } from '@/features/room/api/presentation';
import { SlideView } from '@/features/room/components/slide-view';
import { createSlideCache, type SlideData } from '@/features/room/session/slide-cache';

/**
 * A preview slide drawn by the room's own slide view (read only: product cards open
 * nothing), from the data the preview answered: what attendees see, without a live room.
 */
function RoomSlidePreview({ slide, index, position }: { slide: PreviewSlide; index: number; position: string }) {
  // The slide view loads it from this cache (and so shows it once loaded).
  const cache = useMemo(() => createSlideCache(() => Promise.resolve(slide.data as SlideData)), [slide]);
  const shown = useMemo(
    () => ({ index: index + 1, groupId: slide.pageId, sectionId: slide.sectionId, groupName: slide.title ?? '', sectionName: slide.title ?? '', isInstantListing: false }) as unknown as Slide,
    [slide, index],
  );
  return <SlideView position={position} slide={shown} cache={cache} />;
}

/** The backoffice (its own lazy chunk), with the room's slide view for its attendee preview. */
export function AdminWithRoomPreview() {
  return (
    <SlideRendererProvider value={({ slide, index, position, language }) => <RoomSlidePreview key={`${language}/${slide.pageId}/${slide.sectionId}`} slide={slide} index={index} position={position} />}>
      <AdminApp />
    </SlideRendererProvider>
  );
}
