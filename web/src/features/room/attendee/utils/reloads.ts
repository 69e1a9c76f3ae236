import type { Event } from '@/protocol/generated';
import { isCartAction } from '../../realtime/cart-actions';

const COLLECTION_ACTIONS = new Set(['loadLikeList', 'removeFromLikeList', 'loadLastSeen']);

/**
 * What an attendee reloads after a hub `reload` hint: its cart after a cart action, its
 * collections after a like-list or last-seen action; hints about another attendee are
 * not its business (a null attendee id means the sender itself, which only it receives).
 */
export function reloadsOf(event: Event, ownAttendeeId: string | null): { cart: boolean; collections: boolean } {
  if (event.kind !== 'reload' || !('attendeeId' in event.action.payload)) return { cart: false, collections: false };
  const target = event.action.payload.attendeeId;
  if (target !== null && target !== ownAttendeeId) return { cart: false, collections: false };
  return { cart: isCartAction(event.action.key), collections: COLLECTION_ACTIONS.has(event.action.key) };
}
