import { useStore } from 'zustand';
import type { JoinAppointmentResponse } from '@/lib/api/shop';
import { useAttendeeSession } from '../session/use-attendee-session';
import { attendeeScreen } from '../utils/room-screen';

/**
 * An attendee's live session for one screen (waiting room or room): the session (shared
 * by both screens, which keeps the socket), its connection and which screen to show (a
 * self-service appointment never waits for a guide).
 */
export function useAttendeeRoom(appointmentId: string, joined: JoinAppointmentResponse) {
  const session = useAttendeeSession(appointmentId, joined);
  const connection = useStore(session.client.store, (state) => state.connection);
  const mode = joined.presentationGuideMode === 'self' ? 'self' : 'guided';
  const screen = useStore(session.client.store, (state) => attendeeScreen(state.snapshot, mode));
  return { session, connection, screen };
}
