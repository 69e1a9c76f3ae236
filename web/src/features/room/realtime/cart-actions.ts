import type { Action } from '@/protocol/generated';

/**
 * The hub actions about an attendee's cart, the one list the room uses: a `reload` hint
 * with one of these keys (relayed by the hub for older clients; this app sends none, the
 * shop's `attendeeCartChanged` says it) makes the cart views of that attendee stale.
 * The live-state golden cases (`@/protocol/live-state-cases.json`) check it against the
 * Rust reducer's list.
 */
export const CART_ACTIONS = ['loadCart', 'addToCart', 'removeFromCart', 'updateProductQuantity'] as const satisfies readonly Action['key'][];

export type CartActionKey = (typeof CART_ACTIONS)[number];

const CART_ACTION_SET: ReadonlySet<string> = new Set(CART_ACTIONS);

export function isCartAction(key: Action['key']): key is CartActionKey {
  return CART_ACTION_SET.has(key);
}
