import type { AppointmentMode, Snapshot } from '@/protocol/generated';

/** Which screen an attendee sees: before the start the waiting room, then the room, at last the end. */
export type AttendeeScreen = 'loading' | 'waiting' | 'live' | 'ended';

/**
 * A guided appointment waits for its guide's start; a self-service one is open without a
 * guide (the join let the attendee in within its window), until it ends.
 */
export function attendeeScreen(snapshot: Snapshot | null, mode: AppointmentMode = 'guided'): AttendeeScreen {
  if (!snapshot) return 'loading';
  const { started, ended } = snapshot.stateForAll;
  if (ended) return 'ended';
  return started || mode === 'self' ? 'live' : 'waiting';
}
