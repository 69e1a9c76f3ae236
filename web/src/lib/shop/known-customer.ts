import { customerStore } from './customer';

/**
 * Asks the shop once who the session's customer is, when nobody has asked yet: the room
 * and the pre-join screen have no account link in their header that would (the wishlist
 * follows the answer: the server list for a logged-in customer, else the local one).
 */
export function ensureCustomerKnown(): void {
  if (customerStore.getState().status === 'unknown') customerStore.getState().refresh().catch(() => undefined);
}
