import { describe, expect, it, vi } from 'vitest';
import { applyEvent } from '../../realtime/apply-event';
import type { Cart } from '@/lib/shop/cart';
import type { Event } from '@/protocol/generated';
import { makeAttendee, makeSnapshot } from '@/testing/snapshot';
import { cartToReload, cartTotals, createInsightsStore, likesPerProduct, statusCounts, type InsightsApi } from './insights';

const A = 'a'.repeat(32);
const B = 'b'.repeat(32);
const P1 = '1'.repeat(32);
const P2 = '2'.repeat(32);

function cart(quantity: number, total: number): Cart {
  return {
    lineItems: [
      { id: 'l1', label: 'Lamp', quantity, type: 'product', referencedId: P1, price: { totalPrice: total } },
      { id: 'l2', label: 'SALESROOM10', quantity: 1, type: 'promotion', price: { totalPrice: -1 } },
    ],
    price: { totalPrice: total - 1 },
  } as unknown as Cart;
}

function fakeApi(overrides: Partial<InsightsApi> = {}): InsightsApi {
  return {
    cart: vi.fn().mockResolvedValue(cart(2, 40)),
    changeLine: vi.fn().mockResolvedValue(cart(3, 60)),
    likes: vi.fn().mockResolvedValue({}),
    collections: vi.fn().mockResolvedValue({ liked: [P1], lastSeen: [P2, P1] }),
    wishlist: vi.fn().mockResolvedValue([P2]),
    invitations: vi.fn().mockResolvedValue([]),
    ...overrides,
  };
}

const liked = (attendeeId: string, productId: string, added = true): Event => ({
  kind: 'attendeeCollectionChanged',
  attendeeId,
  collection: 'liked',
  productId,
  added,
});

describe('insights store', () => {
  it("reads an attendee's wishlist, tells a guest's browser-only list apart, and forgets it with the cart", async () => {
    const wishlist = vi.fn().mockResolvedValueOnce([P2, P1]).mockResolvedValueOnce(null).mockRejectedValueOnce(new Error('403'));
    const store = createInsightsStore(fakeApi({ wishlist }));
    const loading = store.getState().loadWishlist(A);
    expect(store.getState().wishlists[A]).toEqual({ status: 'loading', productIds: null });
    await loading;
    expect(store.getState().wishlists[A]).toEqual({ status: 'ready', productIds: [P2, P1] });
    await store.getState().loadWishlist(B);
    expect(store.getState().wishlists[B]).toEqual({ status: 'ready', productIds: null });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await store.getState().loadWishlist(A);
    warn.mockRestore();
    expect(store.getState().wishlists[A]).toEqual({ status: 'failed', productIds: [P2, P1] });
    store.getState().applyEvent({ kind: 'attendeeRemoved', attendeeId: A });
    expect(store.getState().wishlists[A]).toBeUndefined();
    store.getState().forgetCart(B);
    expect(store.getState().wishlists).toEqual({});
  });

  it("keeps each attendee's likes from the hub's events, newest first", () => {
    const store = createInsightsStore(fakeApi());
    for (const event of [liked(A, P1), liked(A, P2), liked(B, P1), liked(A, P1, false)]) store.getState().applyEvent(event);
    store.getState().applyEvent({ kind: 'attendeeCollectionChanged', attendeeId: A, collection: 'lastSeen', productId: P1, added: true });
    store.getState().applyEvent({ kind: 'attendeeCollectionChanged', attendeeId: A, collection: 'disliked', productId: P2, added: true });
    expect(store.getState().likes).toEqual({ [A]: [P2], [B]: [P1] });
    expect(store.getState().lastSeen).toEqual({ [A]: [P1] });
  });

  it("reads an attendee's likes and last seen with their permission, and keeps the events' view when it cannot", async () => {
    const store = createInsightsStore(fakeApi());
    await store.getState().loadCollections(A);
    expect(store.getState()).toMatchObject({ likes: { [A]: [P1] }, lastSeen: { [A]: [P2, P1] } });

    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const refused = createInsightsStore(fakeApi({ collections: vi.fn().mockRejectedValue(new Error('403')) }));
    refused.getState().applyEvent(liked(A, P2));
    await refused.getState().loadCollections(A);
    expect(refused.getState()).toMatchObject({ likes: { [A]: [P2] }, lastSeen: {} });
    warn.mockRestore();
  });

  it('keeps the invitation answers of the last read, and keeps them when a read fails', async () => {
    const invitations = vi
      .fn()
      .mockResolvedValueOnce([
        { attendeeId: A, name: 'Ada', answer: 'accepted' },
        { attendeeId: B, name: 'Bob', answer: 'maybe' },
      ])
      .mockResolvedValueOnce([{ attendeeId: B, name: 'Bob', answer: 'declined' }])
      .mockRejectedValueOnce(new Error('500'));
    const store = createInsightsStore(fakeApi({ invitations }));
    expect(store.getState().invitations).toBeNull();
    await store.getState().loadInvitations();
    expect(store.getState().invitations).toEqual({ [A]: { attendeeId: A, name: 'Ada', answer: 'accepted' }, [B]: { attendeeId: B, name: 'Bob', answer: 'maybe' } });
    await store.getState().loadInvitations();
    expect(store.getState().invitations).toEqual({ [B]: { attendeeId: B, name: 'Bob', answer: 'declined' } });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await store.getState().loadInvitations();
    expect(store.getState().invitations).toEqual({ [B]: { attendeeId: B, name: 'Bob', answer: 'declined' } });
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });

  it('loads likes from the shop without undoing newer events, and shrugs off a missing endpoint', async () => {
    const store = createInsightsStore(fakeApi({ likes: vi.fn().mockResolvedValue({ [A]: [P1], [B]: [P2] }) }));
    store.getState().applyEvent(liked(A, P2));
    await store.getState().loadLikes([A, B]);
    expect(store.getState().likes).toEqual({ [A]: [P2], [B]: [P2] });

    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const without = createInsightsStore(fakeApi({ likes: vi.fn().mockRejectedValue(new Error('404')) }));
    await without.getState().loadLikes([A]);
    expect(without.getState().likes).toEqual({});
    warn.mockRestore();
  });

  it("loads an attendee's cart: product count, total and lines", async () => {
    const api = fakeApi();
    const store = createInsightsStore(api);
    const loading = store.getState().loadCart(A);
    expect(store.getState().carts[A]?.status).toBe('loading');
    await loading;
    expect(api.cart).toHaveBeenCalledWith(A);
    expect(store.getState().carts[A]).toEqual({
      status: 'ready',
      lineItemCount: 2,
      totalPrice: 39,
      lineItems: [
        { id: 'l1', label: 'Lamp', quantity: 2, totalPrice: 40, productId: P1 },
        { id: 'l2', label: 'SALESROOM10', quantity: 1, totalPrice: -1, productId: null },
      ],
    });
  });

  it('marks a cart that cannot be read, and never lets an older answer win', async () => {
    let answerFirst: (value: Cart) => void = () => undefined;
    const first = new Promise<Cart>((resolve) => {
      answerFirst = resolve;
    });
    const api = fakeApi({ cart: vi.fn().mockReturnValueOnce(first).mockResolvedValueOnce(cart(5, 100)).mockRejectedValueOnce(new Error('403')) });
    const store = createInsightsStore(api);
    const slow = store.getState().loadCart(A);
    await store.getState().loadCart(A);
    answerFirst(cart(1, 10));
    await slow;
    expect(store.getState().carts[A]).toMatchObject({ status: 'ready', lineItemCount: 5 });
    await store.getState().loadCart(A);
    expect(store.getState().carts[A]).toMatchObject({ status: 'failed', lineItemCount: 5 });
    store.getState().forgetCart(A);
    expect(store.getState().carts[A]).toBeUndefined();
  });

  it("changes an attendee's cart on their behalf and keeps the shop's answer", async () => {
    const api = fakeApi();
    const store = createInsightsStore(api);
    await store.getState().loadCart(A);
    await store.getState().changeLine(A, 'l1', 3);
    expect(api.changeLine).toHaveBeenCalledWith(A, 'l1', 3);
    expect(store.getState().carts[A]).toMatchObject({ status: 'ready', lineItemCount: 3, totalPrice: 59 });

    const refusing = createInsightsStore(fakeApi({ changeLine: vi.fn().mockRejectedValue(new Error('403')) }));
    await refusing.getState().loadCart(A);
    await expect(refusing.getState().changeLine(A, 'l1', 0)).rejects.toThrow('403');
    expect(refusing.getState().carts[A]).toMatchObject({ lineItemCount: 2 });
  });

  it("takes the hub's cart summary and forgets removed attendees", () => {
    const store = createInsightsStore(fakeApi());
    store.getState().applyEvent({ kind: 'attendeeCartChanged', attendeeId: A, lineItemCount: 3, totalPrice: 59.9 });
    expect(store.getState().carts[A]).toEqual({ status: 'ready', lineItemCount: 3, totalPrice: 59.9, lineItems: null });
    store.getState().applyEvent({ kind: 'attendeeRemoved', attendeeId: A });
    expect(store.getState().carts).toEqual({});
  });
});

describe('cartToReload', () => {
  const granted = makeSnapshot({}, {
    clients: { [A]: makeAttendee(A, { cartPermission: 'granted' }), [B]: makeAttendee(B) },
  });

  it("reloads a cart on a cart hint or a new grant, only with the attendee's permission", () => {
    const guides = granted.stateForGuides;
    expect(cartToReload({ kind: 'reload', action: { key: 'loadCart', payload: { attendeeId: A } } }, guides)).toBe(A);
    expect(cartToReload({ kind: 'reload', action: { key: 'loadCart', payload: { attendeeId: B } } }, guides)).toBeNull();
    expect(cartToReload({ kind: 'reload', action: { key: 'loadCart', payload: { attendeeId: null } } }, guides)).toBeNull();
    expect(cartToReload({ kind: 'reload', action: { key: 'loadLikeList', payload: { attendeeId: A } } }, guides)).toBeNull();
    expect(cartToReload({ kind: 'attendeeCartChanged', attendeeId: A, lineItemCount: 1, totalPrice: 1 }, guides)).toBe(A);
    const grant: Event = { kind: 'cartPermissionChanged', attendeeId: B, permission: 'granted' };
    expect(cartToReload(grant, applyEvent(granted, grant).stateForGuides)).toBe(B);
    expect(cartToReload({ kind: 'cartPermissionChanged', attendeeId: A, permission: 'missing' }, guides)).toBeNull();
  });
});

describe('statistics', () => {
  it('counts likes per product, most liked first, one per attendee', () => {
    expect(likesPerProduct({ [A]: [P2, P1, P1], [B]: [P1] })).toEqual([
      { productId: P1, count: 2 },
      { productId: P2, count: 1 },
    ]);
    expect(likesPerProduct({})).toEqual([]);
  });

  it('adds up the carts the guide can see: only those with cart access', () => {
    const carts = {
      [A]: { status: 'ready', lineItemCount: 2, totalPrice: 40, lineItems: null },
      [B]: { status: 'loading', lineItemCount: 1, totalPrice: 9.5, lineItems: null },
      c: { status: 'failed', lineItemCount: 7, totalPrice: 700, lineItems: null },
      d: { status: 'ready', lineItemCount: 5, totalPrice: 500, lineItems: null },
    } as const;
    const granted = { cartPermission: 'granted' } as const;
    const attendees = [
      makeAttendee(A, granted),
      makeAttendee(B, granted),
      makeAttendee('c', granted),
      // The hub reports this cart's size, but its attendee has not granted access.
      makeAttendee('d', { cartPermission: 'requested' }),
      makeAttendee('e', granted),
    ];
    expect(cartTotals(carts, attendees)).toEqual({ carts: 2, items: 3, total: 49.5 });
    expect(cartTotals(carts, [])).toEqual({ carts: 0, items: 0, total: 0 });
  });

  it('counts attendees by status', () => {
    expect(statusCounts([makeAttendee(A), makeAttendee(B, { status: 'inactive' }), makeAttendee('c', { status: 'joined' })])).toEqual([
      ['joined', 2],
      ['inactive', 1],
    ]);
  });
});
