import type { CartPermission, Event } from '@/protocol/generated';

/**
 * A participant's own cart permission after `event`: the guide's request makes it
 * `requested`, the attendee's answer `granted` or `refused`. Events about other
 * attendees (which only guides receive) leave it as it is.
 */
export function nextCartPermission(current: CartPermission, event: Event, ownAttendeeId: string | null): CartPermission {
  if (event.kind !== 'cartPermissionChanged' || ownAttendeeId === null || event.attendeeId !== ownAttendeeId) return current;
  return event.permission;
}
