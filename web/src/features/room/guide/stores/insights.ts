import { createStore } from 'zustand/vanilla';
import { cartItemCount, type Cart } from '@/lib/shop/cart';
import { isCartAction } from '../../realtime/cart-actions';
import { withoutKey } from '../../utils/without-key';
import type { InvitationEntry } from '../api/attendees';
import type { AttendeeStatus, AttendeeSummary, Event, StateForGuides } from '@/protocol/generated';

/** One line of an attendee's cart as the guide sees it. */
export interface CartLine {
  id: string;
  label: string;
  quantity: number;
  totalPrice: number;
  productId: string | null;
}

/** What the guide knows of an attendee's cart. */
export interface AttendeeCart {
  status: 'loading' | 'ready' | 'failed';
  lineItemCount: number;
  totalPrice: number;
  /** The line items when the cart itself could be read; null when only the hub's summary is known. */
  lineItems: CartLine[] | null;
}

/** What the guide knows of an attendee's wishlist (read with their cart permission). */
export interface AttendeeWishlist {
  status: 'loading' | 'ready' | 'failed';
  /** The product ids, the newest first; null: a guest's wishlist, kept in their browser only. */
  productIds: string[] | null;
}

export interface InsightsApi {
  cart(attendeeId: string): Promise<Cart>;
  /** Changes a line's quantity (0 removes it) on the attendee's behalf (the shop tells the attendee and the guides). */
  changeLine(attendeeId: string, lineItemId: string, quantity: number): Promise<Cart>;
  likes(attendeeIds: string[]): Promise<Record<string, string[]>>;
  /** Liked and last seen products of one attendee, with their permission. */
  collections(attendeeId: string): Promise<{ liked: string[]; lastSeen: string[] }>;
  /** The attendee's wishlist with their permission; null when it lives in their browser (a guest). */
  wishlist(attendeeId: string): Promise<string[] | null>;
  /** Every answer to the appointment's invitation (also of attendees not in the room). */
  invitations(): Promise<InvitationEntry[]>;
}

export interface InsightsState {
  /** Liked product ids by attendee id, the newest first. */
  likes: Record<string, string[]>;
  carts: Record<string, AttendeeCart>;
  /** Last seen product ids by attendee id, the newest first (shown only with the attendee's permission). */
  lastSeen: Record<string, string[]>;
  /** Wishlists by attendee id, once the guide has looked (with the attendee's permission). */
  wishlists: Record<string, AttendeeWishlist>;
  /** Reads the attendee's wishlist (with their permission); a failure says so and keeps what was known. */
  loadWishlist(attendeeId: string): Promise<void>;
  /** Reads an attendee's likes and last seen with their permission; a failure keeps what the events told. */
  loadCollections(attendeeId: string): Promise<void>;
  loadCart(attendeeId: string): Promise<void>;
  /** Changes the attendee's cart (only with their permission); rejects when the shop refuses. */
  changeLine(attendeeId: string, lineItemId: string, quantity: number): Promise<void>;
  forgetCart(attendeeId: string): void;
  /** Loads the likes of attendees the guide has not seen events of; without the endpoint the events still count. */
  loadLikes(attendeeIds: string[]): Promise<void>;
  /** Invitation answers (accepted, maybe, declined) by attendee id, as the shop had them at the last read; null before it. */
  invitations: Record<string, InvitationEntry> | null;
  /** Reads every invitation answer again; a failure keeps what was known and is only logged. */
  loadInvitations(): Promise<void>;
  applyEvent(event: Event): void;
}

export function cartLines(cart: Cart): CartLine[] {
  return (cart.lineItems ?? []).map((item) => ({
    id: item.id,
    label: item.label ?? '',
    quantity: item.quantity ?? 1,
    totalPrice: item.price?.totalPrice ?? 0,
    productId: item.type === 'product' ? (item.referencedId ?? null) : null,
  }));
}

/** The guide's view of each attendee's likes and (with permission) cart, one store per room. */
export function createInsightsStore(api: InsightsApi) {
  return createStore<InsightsState>()((set, get) => {
    /** Bumped per attendee so that an older cart response never overwrites a newer one. */
    const requests: Record<string, number> = {};
    const take = (attendeeId: string, cart: Cart) => {
      const entry: AttendeeCart = {
        status: 'ready',
        lineItemCount: cartItemCount(cart),
        totalPrice: cart.price?.totalPrice ?? 0,
        lineItems: cartLines(cart),
      };
      set((state) => ({ carts: { ...state.carts, [attendeeId]: entry } }));
    };
    return {
      likes: {},
      carts: {},
      lastSeen: {},
      wishlists: {},
      async loadWishlist(attendeeId) {
        const setWishlist = (entry: AttendeeWishlist) => set((state) => ({ wishlists: { ...state.wishlists, [attendeeId]: entry } }));
        const known = get().wishlists[attendeeId];
        setWishlist({ productIds: known?.productIds ?? null, status: 'loading' });
        try {
          setWishlist({ status: 'ready', productIds: await api.wishlist(attendeeId) });
        } catch (error) {
          console.warn('could not load the attendee’s wishlist', error);
          setWishlist({ productIds: get().wishlists[attendeeId]?.productIds ?? null, status: 'failed' });
        }
      },
      async loadCollections(attendeeId) {
        try {
          const { liked, lastSeen } = await api.collections(attendeeId);
          set((state) => ({ likes: { ...state.likes, [attendeeId]: liked }, lastSeen: { ...state.lastSeen, [attendeeId]: lastSeen } }));
        } catch (error) {
          console.warn('could not load the attendee’s collections', error);
        }
      },
      async loadCart(attendeeId) {
        const request = (requests[attendeeId] ?? 0) + 1;
        requests[attendeeId] = request;
        const known = get().carts[attendeeId];
        set((state) => ({
          carts: {
            ...state.carts,
            [attendeeId]: { lineItemCount: 0, totalPrice: 0, lineItems: null, ...known, status: 'loading' },
          },
        }));
        try {
          const cart = await api.cart(attendeeId);
          if (requests[attendeeId] !== request) return;
          take(attendeeId, cart);
        } catch {
          if (requests[attendeeId] !== request) return;
          set((state) => ({
            carts: { ...state.carts, [attendeeId]: { lineItemCount: 0, totalPrice: 0, lineItems: null, ...state.carts[attendeeId], status: 'failed' } },
          }));
        }
      },
      async changeLine(attendeeId, lineItemId, quantity) {
        const request = (requests[attendeeId] ?? 0) + 1;
        requests[attendeeId] = request;
        const cart = await api.changeLine(attendeeId, lineItemId, quantity);
        if (requests[attendeeId] === request) take(attendeeId, cart);
      },
      forgetCart(attendeeId) {
        requests[attendeeId] = (requests[attendeeId] ?? 0) + 1;
        set((state) => ({ carts: withoutKey(state.carts, attendeeId), wishlists: withoutKey(state.wishlists, attendeeId) }));
      },
      invitations: null,
      async loadInvitations() {
        try {
          const loaded = await api.invitations();
          set({ invitations: Object.fromEntries(loaded.map((entry) => [entry.attendeeId, entry])) });
        } catch (error) {
          console.warn('could not load the invitation answers', error);
        }
      },
      async loadLikes(attendeeIds) {
        try {
          const loaded = await api.likes(attendeeIds);
          // Events that came in meanwhile win over the loaded list.
          set((state) => ({ likes: { ...loaded, ...state.likes } }));
        } catch (error) {
          console.warn('could not load the attendees’ likes; live likes still show', error);
        }
      },
      applyEvent(event) {
        if (event.kind === 'attendeeCollectionChanged' && (event.collection === 'liked' || event.collection === 'lastSeen')) {
          const { attendeeId, productId, added } = event;
          const key = event.collection === 'liked' ? 'likes' : 'lastSeen';
          set((state) => {
            const current = (state[key][attendeeId] ?? []).filter((id) => id !== productId);
            return { [key]: { ...state[key], [attendeeId]: added ? [productId, ...current] : current } };
          });
        } else if (event.kind === 'attendeeCartChanged') {
          const { attendeeId, lineItemCount, totalPrice } = event;
          set((state) => ({
            carts: {
              ...state.carts,
              [attendeeId]: { lineItems: null, ...state.carts[attendeeId], status: 'ready', lineItemCount, totalPrice },
            },
          }));
        } else if (event.kind === 'attendeeRemoved') {
          get().forgetCart(event.attendeeId);
        }
      },
    };
  });
}

function attendeeIn(guides: StateForGuides | undefined, attendeeId: string): AttendeeSummary | undefined {
  return guides?.clients[attendeeId] ?? guides?.inactiveClients[attendeeId];
}

/**
 * Whose cart the guide reloads after `event` (applied to `guides` already): an
 * attendee's cart hint or a new grant; null when the guide has no access or nothing changed.
 */
export function cartToReload(event: Event, guides: StateForGuides | undefined): string | null {
  let attendeeId: string | null = null;
  if (event.kind === 'cartPermissionChanged' && event.permission === 'granted') attendeeId = event.attendeeId;
  if (event.kind === 'attendeeCartChanged') attendeeId = event.attendeeId;
  if (event.kind === 'reload' && isCartAction(event.action.key) && 'attendeeId' in event.action.payload) {
    attendeeId = event.action.payload.attendeeId;
  }
  if (!attendeeId) return null;
  return attendeeIn(guides, attendeeId)?.cartPermission === 'granted' ? attendeeId : null;
}

/** Products by the number of attendees who like them, the most liked first. */
export function likesPerProduct(likes: Record<string, string[]>): { productId: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const ids of Object.values(likes)) for (const id of new Set(ids)) counts.set(id, (counts.get(id) ?? 0) + 1);
  return [...counts.entries()]
    .map(([productId, count]) => ({ productId, count }))
    .sort((a, b) => b.count - a.count || a.productId.localeCompare(b.productId));
}

/**
 * The carts the guide can see, added up: those of `attendees` who granted cart access (the
 * hub tells guides every cart's size, but only a grant lets the guide look at it).
 */
export function cartTotals(carts: Record<string, AttendeeCart>, attendees: AttendeeSummary[]): { carts: number; items: number; total: number } {
  const known = attendees
    .filter((attendee) => attendee.cartPermission === 'granted')
    .map((attendee) => carts[attendee.attendeeId])
    .filter((cart): cart is AttendeeCart => cart !== undefined && cart.status !== 'failed');
  return {
    carts: known.length,
    items: known.reduce((sum, cart) => sum + cart.lineItemCount, 0),
    total: known.reduce((sum, cart) => sum + cart.totalPrice, 0),
  };
}

/** Attendees per status, for the statistics modal (statuses without anyone are left out). */
export function statusCounts(attendees: AttendeeSummary[]): [AttendeeStatus, number][] {
  const counts = new Map<AttendeeStatus, number>();
  for (const attendee of attendees) counts.set(attendee.status, (counts.get(attendee.status) ?? 0) + 1);
  return [...counts.entries()];
}
