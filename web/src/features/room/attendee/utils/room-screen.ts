import type { Snapshot } from '@/protocol/generated';

/** Which screen an attendee sees: before the start the waiting room, then the room, at last the end. */
export type AttendeeScreen = 'loading' | 'waiting' | 'live' | 'ended';

export function attendeeScreen(snapshot: Snapshot | null): AttendeeScreen {
  if (!snapshot) return 'loading';
  const { started, ended } = snapshot.stateForAll;
  if (ended) return 'ended';
  return started ? 'live' : 'waiting';
}
