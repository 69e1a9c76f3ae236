import { describe, expect, it, vi } from 'vitest';
import type { Event } from '@/protocol/generated';
import type { CollectionsApi } from '../api/collections';
import { reloadsOf } from '../utils/reloads';
import { createCollectionsStore } from './collections';
import { createSidebarsStore } from './sidebars';

const ME = 'a'.repeat(32);
const OTHER = 'b'.repeat(32);
const P1 = '1'.repeat(32);
const P2 = '2'.repeat(32);

function fakeApi(overrides: Partial<CollectionsApi> = {}): CollectionsApi {
  return {
    liked: vi.fn().mockResolvedValue([P1]),
    lastSeen: vi.fn().mockResolvedValue([P2, P1]),
    like: vi.fn().mockResolvedValue(undefined),
    unlike: vi.fn().mockResolvedValue(undefined),
    viewed: vi.fn().mockResolvedValue(undefined),
    ...overrides,
  };
}

const changed = (fields: Partial<Extract<Event, { kind: 'attendeeCollectionChanged' }>>): Event => ({
  kind: 'attendeeCollectionChanged',
  attendeeId: ME,
  collection: 'liked',
  productId: P2,
  added: true,
  ...fields,
});

describe('collections store', () => {
  it('loads the like list and last seen, and says when it cannot', async () => {
    const store = createCollectionsStore(fakeApi());
    const loading = store.getState().load();
    expect(store.getState().status).toBe('loading');
    await loading;
    expect(store.getState()).toMatchObject({ liked: [P1], lastSeen: [P2, P1], status: 'ready' });

    const broken = createCollectionsStore(fakeApi({ liked: vi.fn().mockRejectedValue(new Error('403')) }));
    await broken.getState().load();
    expect(broken.getState().status).toBe('failed');
  });

  it('likes and unlikes at once, through the shop', async () => {
    const api = fakeApi();
    const store = createCollectionsStore(api);
    const liking = store.getState().toggleLike(P2);
    expect(store.getState().liked).toEqual([P2]);
    expect(store.getState().busy).toEqual([P2]);
    await liking;
    expect(api.like).toHaveBeenCalledWith(P2);
    expect(store.getState().busy).toEqual([]);
    await store.getState().toggleLike(P2);
    expect(api.unlike).toHaveBeenCalledWith(P2);
    expect(store.getState().liked).toEqual([]);
  });

  it('rolls a like back when the shop refuses it, and ignores a second click while it is sent', async () => {
    const like = vi.fn().mockRejectedValue(new Error('down'));
    const store = createCollectionsStore(fakeApi({ like }));
    const first = store.getState().toggleLike(P1);
    await store.getState().toggleLike(P1);
    await first;
    expect(like).toHaveBeenCalledTimes(1);
    expect(store.getState()).toMatchObject({ liked: [], failed: P1, busy: [] });
  });

  it('follows its own collection events, newest first, and not those of others', () => {
    const store = createCollectionsStore(fakeApi());
    store.getState().applyEvent(changed({ productId: P1 }), ME);
    store.getState().applyEvent(changed({ productId: P2 }), ME);
    store.getState().applyEvent(changed({ productId: P1 }), ME);
    expect(store.getState().liked).toEqual([P1, P2]);
    store.getState().applyEvent(changed({ productId: P2, added: false }), ME);
    store.getState().applyEvent(changed({ attendeeId: OTHER, productId: P2 }), ME);
    store.getState().applyEvent(changed({ collection: 'lastSeen', productId: P2 }), ME);
    expect(store.getState()).toMatchObject({ liked: [P1], lastSeen: [P2] });
  });

  it('records a viewed product at the top of last seen even when the shop is down', async () => {
    const store = createCollectionsStore(fakeApi({ viewed: vi.fn().mockRejectedValue(new Error('down')) }));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await store.getState().viewed(P1);
    await store.getState().viewed(P2);
    await store.getState().viewed(P1);
    expect(store.getState().lastSeen).toEqual([P1, P2]);
    warn.mockRestore();
  });
});

describe('sidebars store', () => {
  it('keeps one sidebar open at a time', () => {
    const store = createSidebarsStore();
    store.getState().toggle('likes');
    expect(store.getState().open).toBe('likes');
    store.getState().toggle('cart');
    expect(store.getState().open).toBe('cart');
    store.getState().toggle('cart');
    expect(store.getState().open).toBeNull();
    store.getState().show('wishlist');
    store.getState().close();
    expect(store.getState().open).toBeNull();
  });
});

describe('reload hints', () => {
  const reload = (action: Extract<Event, { kind: 'reload' }>['action']): Event => ({ kind: 'reload', action });

  it('reloads the cart after a cart hint about this attendee or no one in particular', () => {
    expect(reloadsOf(reload({ key: 'addToCart', payload: { attendeeId: ME, productId: P1, quantity: 1 } }), ME)).toEqual({
      cart: true,
      collections: false,
    });
    expect(reloadsOf(reload({ key: 'loadCart', payload: { attendeeId: null } }), ME).cart).toBe(true);
    expect(reloadsOf(reload({ key: 'loadCart', payload: { attendeeId: OTHER } }), ME).cart).toBe(false);
  });

  it('reloads the collections after a like-list hint, nothing after other events', () => {
    expect(reloadsOf(reload({ key: 'removeFromLikeList', payload: { attendeeId: ME, productId: P1 } }), ME)).toEqual({
      cart: false,
      collections: true,
    });
    expect(reloadsOf(reload({ key: 'loadProductList', payload: {} }), ME)).toEqual({ cart: false, collections: false });
    expect(reloadsOf({ kind: 'lockChanged', locked: true }, ME)).toEqual({ cart: false, collections: false });
  });
});
