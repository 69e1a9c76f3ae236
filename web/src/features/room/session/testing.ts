import { vi } from 'vitest';
import type { Event, ServerFrame, Snapshot } from '@/protocol/generated';
import type { Slide } from '../api/presentation';
import type { FakeSocket, fakeSockets } from '../realtime/fake-socket';
import type { PresentationApi } from './room-session';
import type { SlideData } from './slide-cache';

/** What the tests of both sides' sessions share: a hub over fake sockets, a presentation, ids. */

export const APPOINTMENT = 'f'.repeat(32);
export const ADA = 'a'.repeat(32);
export const BOB = 'b'.repeat(32);
export const PAGE = 'c'.repeat(32);
export const P1 = '1'.repeat(32);

export const slide = (index: number, fields: Partial<Slide> = {}): Slide => ({
  cmsPageId: PAGE,
  groupId: PAGE,
  groupName: 'Page',
  sectionId: String(index).repeat(32).slice(0, 32),
  sectionName: null,
  index,
  notes: [],
  ...fields,
});

export function welcome(role: 'GUIDE' | 'CLIENT', snapshot: Snapshot, attendeeId = 'e'.repeat(32)): ServerFrame {
  return { type: 'welcome', appointmentId: APPOINTMENT, attendeeId, role, seq: 0, epoch: 'e1', resume: 'fresh', snapshot, heartbeatMs: 60_000 };
}

/** The hub's side of one session's sockets: welcome, then events in order. */
export function hub(sockets: ReturnType<typeof fakeSockets>) {
  let seq = 0;
  return {
    welcome(frame: ServerFrame): FakeSocket {
      const socket = sockets.last();
      socket.open();
      socket.receive(frame);
      seq = frame.type === 'welcome' ? frame.seq : seq;
      return socket;
    },
    send(event: Event) {
      sockets.last().receive({ type: 'event', seq: seq + 1, prev: seq, event });
      seq += 1;
    },
    /** The frames the client sent besides hello, ping and pong. */
    sent: () => sockets.sockets.flatMap((socket) => socket.sent).filter((frame) => frame.type === 'action' || frame.type === 'interaction'),
  };
}

export function fakePresentation(slides: Slide[]) {
  return {
    slides: vi.fn<PresentationApi['slides']>().mockResolvedValue(slides),
    slide: vi.fn<PresentationApi['slide']>().mockImplementation(({ sectionId }) => Promise.resolve({ cmsSection: { id: sectionId } } as SlideData)),
  };
}

export const flush = () => vi.advanceTimersByTimeAsync(0);
